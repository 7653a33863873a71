import { NonRetriableError } from "inngest";
import { z } from "zod";
import { inngest } from "@/inngest/client";
import { completeRun, failRunUploads, flagNearDuplicates, startRunUploads } from "@/lib/import/finish-run";
import { IMPORT_RUN_TRANSFERRED_EVENT } from "@/lib/import/schemas";

const TransferredData = z.object({ runId: z.string().min(1) });

/**
 * A run whose transfers have all ended: its images' near-duplicate check, then the uploads' jobs,
 * then its summary. Each step is safe to repeat, so a crash repeats at most the step in flight.
 */
export const importRunFinish = inngest.createFunction(
  {
    id: "import-run-finish",
    name: "Finish an import run",
    triggers: [{ event: IMPORT_RUN_TRANSFERRED_EVENT }],
    retries: 3,
    onFailure: async ({ event, error }) => {
      const parsed = TransferredData.safeParse(event.data.event.data);
      if (!parsed.success) return;
      const reason = `The import's follow-up stopped unexpectedly: ${error.message}`;
      // The files are in: their uploads still get their jobs (a repeat is ignored), or fail where that cannot be done.
      await startRunUploads(parsed.data.runId).catch(() => failRunUploads(parsed.data.runId, reason));
      await completeRun(parsed.data.runId, reason);
    },
  },
  async ({ event, step }) => {
    const data = TransferredData.safeParse(event.data);
    if (!data.success) throw new NonRetriableError(`Malformed ${IMPORT_RUN_TRANSFERRED_EVENT} event: ${data.error.message}`);
    const { runId } = data.data;
    const hashed = await step.run("near-duplicates", () => flagNearDuplicates(runId));
    const started = await step.run("start-uploads", () => startRunUploads(runId));
    await step.run("complete", () => completeRun(runId));
    return { runId, hashed, started };
  },
);
