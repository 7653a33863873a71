import { NonRetriableError } from "inngest";
import { z } from "zod";
import { inngest } from "@/inngest/client";
import { abandonRun } from "@/lib/upload-job/finish-upload";
import { completeVersionUpload } from "@/lib/upload-job/version-upload";
import { UPLOAD_VERSION_REQUESTED_EVENT } from "@/lib/uploads/upload-schema";

const RequestedData = z.object({ uploadId: z.string().min(1), workspaceId: z.string().min(1), jobRun: z.number().int().positive() });

/**
 * One job run of an upload sent as a new version of a creative (POST /api/v1/uploads with
 * versionOf, or tus metadata versionOf): the file becomes the creative's next version in one step.
 * Nothing is pushed and no creative is made, so a large version never appears in the library.
 */
export const uploadVersion = inngest.createFunction(
  {
    id: "upload-version",
    name: "Make an upload a creative's new version",
    triggers: [{ event: UPLOAD_VERSION_REQUESTED_EVENT }],
    retries: 3,
    onFailure: async ({ event, error }) => {
      const parsed = RequestedData.safeParse(event.data.event.data);
      if (!parsed.success) return;
      await abandonRun({ ...parsed.data, reason: error.message });
    },
  },
  async ({ event, step }) => {
    const data = RequestedData.safeParse(event.data);
    if (!data.success) throw new NonRetriableError(`Malformed ${UPLOAD_VERSION_REQUESTED_EVENT} event: ${data.error.message}`);
    const { uploadId, jobRun } = data.data;
    const outcome = await step.run("add-version", () => completeVersionUpload({ uploadId, jobRun }));
    return { uploadId, jobRun, ...outcome };
  },
);
