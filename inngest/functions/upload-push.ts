import { NonRetriableError } from "inngest";
import { z } from "zod";
import { inngest } from "@/inngest/client";
import { finishCreativeImport, renderCreativePreview, renderCreativeThumbnails } from "@/lib/creatives/import-creative";
import { abandonRun, completeUpload, failUpload } from "@/lib/upload-job/finish-upload";
import { pushUploadOnce } from "@/lib/upload-job/push-attempt";
import { UPLOAD_REQUESTED_EVENT } from "@/lib/uploads/upload-schema";

/** Upload jobs in a step at once, process-wide (the runner's function-wide limit; Inngest's the same). */
const UPLOAD_PUSHES_AT_ONCE = 8;

const RequestedData = z.object({ uploadId: z.string().min(1), workspaceId: z.string().min(1), jobRun: z.number().int().positive() });

import { runMediaTransfer } from "./media-transfer-steps";

/**
 * One job run of an upload: push the stored file to the workspace's default ad account (a
 * media push, lib/media-push: each attempt its own step with durable sleeps between them,
 * PLATFORM_RETRY_DELAYS_MS; large videos in recorded chunks, then the platform's processing),
 * so a restart resumes where it stopped. Success completes the upload and files its
 * creative, which is then probed (retried while the file cannot be read for the moment), given
 * WebP thumbnails (lib/creatives/renditions) and, for videos, a 720p preview in later steps;
 * a terminal refusal or exhausted retries fail it. Each outcome emits one event per run.
 */
export const uploadPush = inngest.createFunction(
  {
    id: "upload-push",
    name: "Push an upload to its ad account",
    triggers: [{ event: UPLOAD_REQUESTED_EVENT }],
    // Step retries cover infrastructure hiccups (database, storage, a probe of the file killed or failing to read
    // it: finishCreativeImport throws those); platform retries are the attempts below. Once spent, onFailure fails
    // what is still in progress with the last error (abandonRun). A verdict on the file fails its creative at once.
    retries: 3,
    // Each push in flight reads its whole file (a buffered stream, a hash); an import's run starts all its
    // uploads at once, and unbounded they grew RSS by hundreds of MB (docs/performance.md, bench:import).
    // Runs sleeping between attempts or waiting on the platform's processing do not hold a slot.
    concurrency: { limit: UPLOAD_PUSHES_AT_ONCE },
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
    const outcome = await runMediaTransfer(step, (attempt) => pushUploadOnce({ uploadId, jobRun, attempt }), jobRun);
    if (!outcome.ok && "stale" in outcome) return { uploadId, jobRun, status: "skipped" };

    if (!outcome.ok) {
      const error = outcome.message;
      await step.run("mark-failed", () => failUpload({ uploadId, jobRun, error }));
      return { uploadId, jobRun, status: "failed", error };
    }

    const externalId = outcome.externalId;
    const { creativeId } = await step.run("mark-completed", () => completeUpload({ uploadId, jobRun, externalId }));
    if (!creativeId) return { uploadId, jobRun, status: "skipped" };

    const imported = await step.run("import-creative", () => finishCreativeImport(creativeId));
    if (imported.status === "ready") await step.run("render-thumbnails", () => renderCreativeThumbnails(creativeId));
    if (imported.status === "ready" && imported.kind === "video") {
      await step.run("render-preview", () => renderCreativePreview(creativeId));
    }
    return { uploadId, jobRun, status: "completed", creativeId, creative: imported.status };
  },
);
