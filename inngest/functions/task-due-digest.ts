import { inngest } from "@/inngest/client";
import { sendDueDigests } from "@/lib/tasks/due-digest";

/** Every quarter hour: the morning task.due digest of each workspace whose owner's 08:00 has come (once a day). */
export const taskDueDigest = inngest.createFunction(
  { id: "task-due-digest", name: "Morning task digest", triggers: [{ cron: "*/15 * * * *" }], retries: 2 },
  async ({ step }) => step.run("send-due-digests", async () => ({ sent: (await sendDueDigests()).length })),
);
