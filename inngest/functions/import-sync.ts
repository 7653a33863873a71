import { inngest } from "@/inngest/client";
import { syncAllWatchedFolders } from "@/lib/import/watch";

/** Every quarter hour: each watched folder of an active connection is synced (new files only). */
export const importSync = inngest.createFunction(
  { id: "import-sync", name: "Sync watched folders", triggers: [{ cron: "*/15 * * * *" }], retries: 1 },
  async ({ step }) => step.run("sync-watched-folders", () => syncAllWatchedFolders()),
);
