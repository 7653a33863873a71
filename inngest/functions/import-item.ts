import { NonRetriableError } from "inngest";
import { z } from "zod";
import { inngest } from "@/inngest/client";
import { IMPORT_ITEM_EVENT } from "@/lib/import/schemas";
import { failItem, settleRunOfItem, transferImportItem } from "@/lib/import/transfer";

const RequestedData = z.object({ itemId: z.string().min(1), workspaceId: z.string().min(1) });

/**
 * One file of an import: the transfer from the provider into media storage is one step, so a
 * finished file is never read again after a restart; a transfer cut by a crash starts over (the
 * storage write is all-or-nothing). The upload it records runs the ordinary upload job once the
 * run's transfers have all ended (import-run-finish.ts).
 */
export const importItem = inngest.createFunction(
  {
    id: "import-item",
    name: "Import one file from external storage",
    triggers: [{ event: IMPORT_ITEM_EVENT }],
    retries: 3,
    concurrency: { limit: 4 },
    onFailure: async ({ event, error }) => {
      const parsed = RequestedData.safeParse(event.data.event.data);
      if (!parsed.success) return;
      await failItem(parsed.data.itemId, `The import job stopped unexpectedly: ${error.message}`);
      await settleRunOfItem(parsed.data.itemId);
    },
  },
  async ({ event, step }) => {
    const data = RequestedData.safeParse(event.data);
    if (!data.success) throw new NonRetriableError(`Malformed ${IMPORT_ITEM_EVENT} event: ${data.error.message}`);
    const { itemId } = data.data;
    // The run's recount rides in the same step: a repeat of the transfer answers a finished item as it is.
    const outcome = await step.run("transfer", async () => {
      const result = await transferImportItem(itemId);
      await settleRunOfItem(itemId);
      return result;
    });
    return { itemId, ...outcome };
  },
);
