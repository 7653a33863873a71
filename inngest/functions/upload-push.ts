import { NonRetriableError } from "inngest";
import { z } from "zod";
import { inngest } from "@/inngest/client";
import { getConfig } from "@/lib/services";
import { finishCreativeImport, renderCreativePreview } from "@/lib/creatives/import-creative";
import { abandonRun, completeUpload, failUpload } from "@/lib/upload-job/finish-upload";
import { pushUploadOnce, type PushOutcome } from "@/lib/upload-job/push-attempt";
import { UPLOAD_REQUESTED_EVENT } from "@/lib/uploads/upload-schema";

const RequestedData = z.object({ uploadId: z.string().min(1), workspaceId: z.string().min(1), jobRun: z.number().int().positive() });

/** Inngest sleeps are whole seconds; a configured delay never rounds down to no wait at all. */
const asSleep = (ms: number) => `${Math.max(1, Math.ceil(ms / 1000))}s`;

/**
 * One job run of an upload: push the stored file to the workspace's ad account, each
 * attempt its own step with durable sleeps between them (PLATFORM_RETRY_DELAYS_MS), so
 * a restart resumes where it stopped. Success completes the upload and files its
 * creative, which is then probed (and, for videos, given a 720p preview) in later steps;
 * a terminal refusal or exhausted retries fail it. Each outcome emits one event per run.
 */
export const uploadPush = inngest.createFunction(
  {
    id: "upload-push",
    name: "Push an upload to its ad account",
    triggers: [{ event: UPLOAD_REQUESTED_EVENT }],
    // Step retries cover infrastructure hiccups (database, storage); platform retries are the attempts below.
    retries: 3,
    onFailure: async ({ event, error }) => {
      const parsed = RequestedData.safeParse(event.data.event.data);
      if (!parsed.success) return;
      await abandonRun({ ...parsed.data, reason: error.message });
    },
  },
  async ({ event, step }) => {
    const data = RequestedData.safeParse(event.data);
    if (!data.success) throw new NonRetriableError(`Malformed ${UPLOAD_REQUESTED_EVENT} event: ${data.error.message}`);
    const { uploadId, jobRun } = data.data;
    const delays = getConfig().platforms.retryDelaysMs;
    const attempts = delays.length + 1;

    let outcome: PushOutcome | undefined;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      outcome = (await step.run(`push-attempt-${attempt}`, () => pushUploadOnce({ uploadId, jobRun, attempt }))) as PushOutcome;
      if (outcome.ok || "stale" in outcome || !outcome.retryable || attempt === attempts) break;
      await step.sleep(`wait-before-attempt-${attempt + 1}`, asSleep(delays[attempt - 1]!));
    }
    if (!outcome || (!outcome.ok && "stale" in outcome)) return { uploadId, jobRun, status: "skipped" };

    if (!outcome.ok) {
      const tries = outcome.retryable ? ` (gave up after ${attempts} attempts)` : "";
      const error = `${outcome.message}${tries}`;
      await step.run("mark-failed", () => failUpload({ uploadId, jobRun, error }));
      return { uploadId, jobRun, status: "failed", error };
    }

    const externalId = outcome.externalId;
    const { creativeId } = await step.run("mark-completed", () => completeUpload({ uploadId, jobRun, externalId }));
    if (!creativeId) return { uploadId, jobRun, status: "skipped" };

    const imported = await step.run("import-creative", () => finishCreativeImport(creativeId));
    if (imported.status === "ready" && imported.kind === "video") {
      await step.run("render-preview", () => renderCreativePreview(creativeId));
    }
    return { uploadId, jobRun, status: "completed", creativeId, creative: imported.status };
  },
);
