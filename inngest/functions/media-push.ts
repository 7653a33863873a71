import { NonRetriableError } from "inngest";
import { z } from "zod";
import { inngest } from "@/inngest/client";
import { MEDIA_PUSH_REQUESTED_EVENT } from "@/lib/media-push/schema";
import { failPush, transferOnce } from "@/lib/media-push/transfer";
import { runMediaTransfer } from "./media-transfer-steps";

const RequestedData = z.object({ pushId: z.string().min(1), workspaceId: z.string().min(1), jobRun: z.number().int().positive() });

/**
 * Sends a library creative's media to another ad account (send_creative_to_ad_account, or an ad
 * built where the creative is not yet present): transfer attempts, then the platform's processing;
 * the push ends ready with the platform's id, or failed with the platform's reason.
 */
export const mediaPush = inngest.createFunction(
  {
    id: "media-push",
    name: "Send a creative's media to an ad account",
    triggers: [{ event: MEDIA_PUSH_REQUESTED_EVENT }],
    retries: 3,
    onFailure: async ({ event, error }) => {
      const parsed = RequestedData.safeParse(event.data.event.data);
      if (parsed.success) await failPush(parsed.data.pushId, parsed.data.jobRun, `The push job stopped unexpectedly: ${error.message}`);
    },
  },
  async ({ event, step }) => {
    const data = RequestedData.safeParse(event.data);
    if (!data.success) throw new NonRetriableError(`Malformed ${MEDIA_PUSH_REQUESTED_EVENT} event: ${data.error.message}`);
    const { pushId, jobRun } = data.data;
    const result = await runMediaTransfer(step, (attempt) => transferOnce(pushId, { jobRun, attempt }), jobRun);
    if (result.ok) return { pushId, jobRun, state: "ready", externalId: result.externalId };
    if ("stale" in result) return { pushId, jobRun, state: "skipped" };
    await step.run("mark-failed", () => failPush(pushId, jobRun, result.message));
    return { pushId, jobRun, state: "failed", error: result.message };
  },
);
