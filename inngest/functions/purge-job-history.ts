import { inngest } from "@/inngest/client";
import { getDb } from "@/lib/db/client";
import { purgeExpiredIdempotencyKeys } from "@/lib/idempotency";
import { purgeOldNotifications } from "@/lib/notifications/purge";
import { purgeExpiredOAuthRecords } from "@/lib/oauth/purge";
import { purgeOldSecurityEvents, purgeSpentAccountLinks } from "@/lib/session/purge";
import { purgeEndedAttemptCounters } from "@/lib/session/throttle";

const KEEP_DAYS = 7;

/**
 * Daily: deletes the embedded runner's finished runs and processed events older than a week, expired
 * idempotency keys, spent OAuth records, notifications past NOTIFICATION_RETENTION_DAYS, password reset and
 * address confirmation links a week after they were used or expired, the counters of the sign-in limits
 * whose window has ended (lib/session/throttle.ts), and security events past SECURITY_EVENT_KEEP_DAYS (90).
 */
export const purgeJobHistory = inngest.createFunction(
  { id: "purge-job-history", name: "Purge job history", triggers: [{ cron: "17 3 * * *" }], retries: 2 },
  async ({ step }) => {
    const idempotencyKeys = await step.run("purge-expired-idempotency-keys", () => purgeExpiredIdempotencyKeys());
    const oauth = await step.run("purge-expired-oauth-records", () => purgeExpiredOAuthRecords());
    const notifications = await step.run("purge-old-notifications", () => purgeOldNotifications());
    const accountLinks = await step.run("purge-spent-account-links", () => purgeSpentAccountLinks());
    const attemptCounters = await step.run("purge-ended-attempt-counters", () => purgeEndedAttemptCounters());
    const securityEvents = await step.run("purge-old-security-events", () => purgeOldSecurityEvents());
    const jobs = await step.run("delete-old-records", async () => {
      const before = new Date(Date.now() - KEEP_DAYS * 86_400_000);
      const db = getDb();
      const runs = await db.jobRun.deleteMany({ where: { status: { in: ["completed", "failed", "cancelled"] }, endedAt: { lt: before } } });
      const events = await db.jobEvent.deleteMany({ where: { processedAt: { lt: before } } });
      return { runs: runs.count, events: events.count };
    });
    return { ...jobs, idempotencyKeys, oauth, notifications, accountLinks, attemptCounters, securityEvents };
  },
);
