import type { Principal } from "@/lib/auth/principal";
import { emitEvent } from "@/lib/events/emit";
import { notFoundEndpoint } from "./endpoint";

/** Fires a signed sample event of type `test` at the workspace's endpoint (delivered whatever it subscribes to). */
export async function sendTestEvent(principal: Principal): Promise<{ event: { id: string; type: "test"; createdAt: string } }> {
  // The endpoint check is part of the statement that stores the event.
  const event = await emitEvent({
    onlyWithEndpoint: true,
    workspaceId: principal.workspaceId,
    type: "test",
    data: {
      message: "A test event from Adloom: your endpoint is receiving signed webhooks.",
      triggeredBy: { userId: principal.userId, name: principal.userName },
    },
  });
  if (!event.stored) throw notFoundEndpoint();
  return { event: { id: event.id, type: "test", createdAt: event.createdAt } };
}
