import type { Principal } from "@/lib/auth/principal";
import { getDb } from "@/lib/db/client";
import { emitEvent } from "@/lib/events/emit";
import { notFoundEndpoint } from "./endpoint";

/** Fires a signed sample event of type `test` at the workspace's endpoint (delivered whatever it subscribes to). */
export async function sendTestEvent(principal: Principal): Promise<{ event: { id: string; type: "test"; createdAt: string } }> {
  const endpoint = await getDb().webhookEndpoint.findUnique({ where: { workspaceId: principal.workspaceId }, select: { id: true } });
  if (!endpoint) throw notFoundEndpoint();
  const event = await emitEvent({
    workspaceId: principal.workspaceId,
    type: "test",
    data: { message: "A test event from Adloom: your endpoint is receiving signed webhooks.", triggeredBy: { userId: principal.userId, name: principal.userName } },
  });
  return { event: { id: event.id, type: "test", createdAt: event.createdAt } };
}
