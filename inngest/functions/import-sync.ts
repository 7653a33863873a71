import { inngest } from "@/inngest/client";
import { syncAllWatchedFolders } from "@/lib/import/watch";
import { getConfig } from "@/lib/services";

/** Every quarter hour: each watched folder of an active connection is synced (new files only). IMPORT_SYNC=0 turns it off. */
export const importSync = inngest.createFunction(
  { id: "import-sync", name: "Sync watched folders", triggers: [{ cron: "*/15 * * * *" }], retries: 1 },
  async ({ step }) => {
    if (!getConfig().storageProviders.scheduledSync) return { skipped: true };
    return step.run("sync-watched-folders", () => syncAllWatchedFolders());
  },
);
