import { inngest } from "@/inngest/client";
import { deliverEmail, deliverSlack, emailRecipients, markFannedOut } from "@/lib/notifications/fan-out";
import { NOTIFICATION_FAN_OUT_EVENT, type NotificationFanOutData } from "@/lib/notifications/job-events";
import { sweepNotifications } from "@/lib/notifications/sweep";

/**
 * One notification to its people: the recipients are fixed in the first step (so a resumed run
 * mails the same people), then one step per email and one for Slack, each retried on its own.
 */
export const notificationFanOut = inngest.createFunction(
  { id: "notification-fan-out", name: "Send a notification by email and Slack", triggers: [{ event: NOTIFICATION_FAN_OUT_EVENT }], retries: 4 },
  async ({ event, step }) => {
    const { notificationId } = event.data as NotificationFanOutData;
    const recipients = await step.run("recipients", () => emailRecipients(notificationId));
    const email: Record<string, string> = {};
    for (const userId of recipients) email[userId] = await step.run(`email-${userId}`, () => deliverEmail(notificationId, userId));
    const slack = await step.run("slack", () => deliverSlack(notificationId));
    await step.run("done", () => markFannedOut(notificationId));
    return { email, slack };
  },
);

/** Every minute: ad accounts that need reconnecting are told about, and unfinished fan-outs queued again. */
export const notificationSweep = inngest.createFunction(
  { id: "notification-sweep", name: "Notification sweep", triggers: [{ cron: "* * * * *" }], retries: 2 },
  async ({ step }) => step.run("sweep", () => sweepNotifications(new Date())),
);
