/**
 * The notifications the domain records without a request to make them (a rule acting in the hourly
 * job, an ad account whose token the platform refused) and the fan-out's guarantees, run in-process
 * against a real database, a real SMTP server and a local receiver as the Slack channel: each person
 * gets one email per event whatever is retried, and a send interrupted by a crash is not repeated.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useFreshDatabase } from "../helpers/in-process-db";
import { startReceiver, type Receiver } from "../webhooks/helpers/receiver";
import { startSmtp } from "./helpers";

let smtp: Awaited<ReturnType<typeof startSmtp>>;
let slack: Receiver;
let db: ReturnType<typeof import("@/lib/db/client").getDb>;

beforeAll(async () => {
  smtp = await startSmtp();
  slack = await startReceiver();
  process.env.SMTP_URL = smtp.url;
  process.env.WEBHOOKS_ALLOW_PRIVATE_URLS = "1";
  // The Slack URL is sealed; on PostgreSQL the key must come from configuration (as tests/helpers/server.ts gives it).
  process.env.CREDENTIALS_KEY ??= "test-credentials-key-0123456789abcdef0123";
  await useFreshDatabase("notifications_fan_out");
  db = (await import("@/lib/db/client")).getDb();
});
afterAll(async () => {
  delete process.env.SMTP_URL;
  await (await import("@/lib/services")).disposeServices();
  await smtp.close();
  await slack.close();
});

/** What the fan-out job does, step by step (inngest/functions/notifications.ts). */
async function fanOut(notificationId: string) {
  const { emailRecipients, deliverEmail, deliverSlack, markFannedOut } = await import("@/lib/notifications/fan-out");
  const email: Record<string, string> = {};
  for (const userId of await emailRecipients(notificationId)) email[userId] = await deliverEmail(notificationId, userId);
  const slackOutcome = await deliverSlack(notificationId);
  await markFannedOut(notificationId);
  return { email, slack: slackOutcome };
}

async function workspace(name: string) {
  const { createWorkspace } = await import("@/lib/workspaces/workspaces");
  const { principalForUser } = await import("@/lib/session/principal");
  const { runAdminCommand } = await import("@/lib/admin/commands");
  const ownerEmail = `owner-${Date.now()}@example.com`;
  const { workspaceId, ownerUserId } = await createWorkspace({ name, plan: "pro", ownerEmail, ownerName: "Olga Owner" });
  const principal = (await principalForUser(ownerUserId, workspaceId))!;
  const adminEmail = `admin-${Date.now()}@example.com`;
  const { userId: adminId } = (await runAdminCommand(["member", "add", "--workspace", workspaceId, "--email", adminEmail, "--role", "admin"])) as {
    userId: string;
  };
  const editorEmail = `editor-${Date.now()}@example.com`;
  await runAdminCommand(["member", "add", "--workspace", workspaceId, "--email", editorEmail, "--role", "editor"]);
  const { setSlackChannel } = await import("@/lib/notifications/slack");
  await setSlackChannel(principal, { url: `${new URL(slack.url).origin}/services/${workspaceId}` });
  return { workspaceId, principal, ownerEmail, adminId, adminEmail, editorEmail };
}

describe("notifications made by jobs, and the fan-out's guarantees", () => {
  it("a rule that acts tells its author, owners and admins (not editors) and the Slack channel", async () => {
    const { workspaceId, principal, ownerEmail, adminEmail, editorEmail } = await workspace("Rules Co");
    const { createCampaign } = await import("@/lib/ads/campaigns");
    const { createRule } = await import("@/lib/automation/rules");
    const { runRule } = await import("@/lib/automation/run");
    await createCampaign(principal, { platform: "platform_a", name: "go summer", objective: "sales" });
    const { rule } = await createRule(principal, {
      name: "Go live",
      cooldownMinutes: 60,
      conditions: [{ metric: "impressions", operator: "gte", value: 0 }],
      match: "all",
      window: "today",
      scope: { level: "campaigns", nameContains: "go" },
      action: { type: "activate" },
    });
    await runRule(await db.automationRule.findUniqueOrThrow({ where: { id: rule.id } }));

    const [notification] = await db.notification.findMany({ where: { workspaceId, kind: "rule_triggered" } });
    expect(notification).toMatchObject({ title: 'Rule "Go live" acted on 1 item', path: "/dashboard/performance/rules" });
    const outcome = await fanOut(notification!.id);
    expect(Object.values(outcome.email)).toEqual(["sent", "sent"]);
    expect(outcome.slack).toBe("sent");
    expect(smtp.to(ownerEmail).map((m) => m.subject)).toEqual(['Rule "Go live" acted on 1 item']);
    expect(smtp.to(ownerEmail)[0]!.text).toContain("- go summer (campaign go summer)");
    expect(smtp.to(adminEmail)).toHaveLength(1);
    expect(smtp.to(editorEmail)).toEqual([]);
    const posted = slack.requests.filter((r) => r.path === `/services/${workspaceId}`);
    expect(posted).toHaveLength(1);
    expect(JSON.parse(posted[0]!.body).text).toBe('Rule "Go live" acted on 1 item: http://localhost:3000/dashboard/performance/rules');
  });

  it("an ad account that needs reconnecting is told once per transition; retries send nothing twice; an interrupted send is not repeated", async () => {
    const { workspaceId, ownerEmail, adminId, adminEmail } = await workspace("Reconnect Co");
    const { ensureDefaultAccounts, markNeedsReconnect } = await import("@/lib/platforms/accounts");
    const { sweepNotifications } = await import("@/lib/notifications/sweep");
    const { deliverEmail } = await import("@/lib/notifications/fan-out");
    await ensureDefaultAccounts(workspaceId);
    const account = await db.adAccount.findFirstOrThrow({ where: { workspaceId, platform: "platform_a" } });
    await markNeedsReconnect(account.id, "Error validating access token: Session has expired");

    await sweepNotifications(new Date());
    await sweepNotifications(new Date()); // the next minute's sweep: the same transition, nothing new
    const found = await db.notification.findMany({ where: { workspaceId, kind: "ad_account_reconnect" } });
    expect(found).toHaveLength(1);
    const n = found[0]!;
    expect(n.title).toMatch(/^Ad account .* \(platform_a\) needs reconnecting$/);

    // A crash while mailing the admin: the claim is left "sending". The re-run does not mail them again.
    const { newId } = await import("@/lib/ids");
    await db.notificationDelivery.create({
      data: { id: newId("ntd"), notificationId: n.id, workspaceId, channel: "email", recipient: adminId, status: "sending" },
    });
    const first = await fanOut(n.id);
    expect(first.email[adminId]).toBe("interrupted");
    expect(Object.values(first.email).filter((s) => s === "sent")).toHaveLength(1);
    // A retried job (or step) sends nothing twice.
    const again = await fanOut(n.id);
    expect(Object.values(again.email).sort()).toEqual(["interrupted", "sent"]);
    expect(await deliverEmail(n.id, adminId)).toBe("interrupted");

    expect(smtp.to(ownerEmail)).toHaveLength(1);
    expect(smtp.to(ownerEmail)[0]!.text).toContain("Reason: Error validating access token: Session has expired");
    expect(smtp.to(ownerEmail)[0]!.text).toContain("Open it in Adloom: http://localhost:3000/dashboard/settings/ad-accounts");
    expect(smtp.to(adminEmail)).toEqual([]);
    expect(slack.requests.filter((r) => r.path === `/services/${workspaceId}`)).toHaveLength(1);
    expect((await db.notification.findUniqueOrThrow({ where: { id: n.id } })).fannedOutAt).not.toBeNull();
  });

  it("a fan-out that ended without finishing (the mail server down past its retries) runs again every half hour for a day; what went out is not repeated", async () => {
    const { workspaceId, ownerEmail, adminId, adminEmail } = await workspace("Outage Co");
    const { ensureDefaultAccounts, markNeedsReconnect } = await import("@/lib/platforms/accounts");
    const { sweepNotifications } = await import("@/lib/notifications/sweep");
    const { NOTIFICATION_FAN_OUT_EVENT } = await import("@/lib/notifications/job-events");
    await ensureDefaultAccounts(workspaceId);
    const account = await db.adAccount.findFirstOrThrow({ where: { workspaceId, platform: "platform_a" } });
    await markNeedsReconnect(account.id, "Error validating access token: Session has expired");
    await sweepNotifications(new Date());
    const recorded = await db.notification.findFirstOrThrow({ where: { workspaceId, kind: "ad_account_reconnect" } });
    // Recorded 31.5 minutes before a clock half hour, so the sweeps at 31 and 32 minutes fall on either side of it.
    const halfHour = 30 * 60_000;
    const createdAt = new Date(Math.floor(Date.now() / halfHour) * halfHour - 31.5 * 60_000);
    const n = await db.notification.update({ where: { id: recorded.id }, data: { createdAt } });
    // The run during the outage: the owner's email went out, the admin's failed for good (its step's retries spent).
    const { newId } = await import("@/lib/ids");
    const owner = await db.user.findUniqueOrThrow({ where: { email: ownerEmail } });
    const at = (minutes: number) => new Date(n.createdAt.getTime() + minutes * 60_000);
    await db.notificationDelivery.createMany({
      data: [
        { id: newId("ntd"), notificationId: n.id, workspaceId, channel: "email", recipient: owner.id, status: "sent", finishedAt: at(0) },
        { id: newId("ntd"), notificationId: n.id, workspaceId, channel: "email", recipient: adminId, status: "failed", error: "connect ECONNREFUSED" },
      ],
    });
    const events = async () =>
      (
        await db.$queryRawUnsafe<{ id: string }[]>(
          `SELECT id FROM job_events WHERE name = $1 AND data->>'notificationId' = $2 ORDER BY id`,
          NOTIFICATION_FAN_OUT_EVENT,
          n.id,
        )
      ).map((e) => e.id);
    const before = await events();

    // Minutes later the original event's id is sent again (it deduplicates where it arrived): nothing new to run.
    await sweepNotifications(at(5));
    expect(await events()).toEqual([...new Set([...before, `notify-${n.id}`])].sort());
    // Past the fan-out's retries: a new event, one per half hour however many sweeps run in it.
    await sweepNotifications(at(31));
    await sweepNotifications(at(32));
    await sweepNotifications(at(65));
    const again = (await events()).filter((id) => id.startsWith(`notify-${n.id}-again-`));
    expect(again).toHaveLength(2);

    // The run it starts mails the admin and only the admin.
    const rerun = await fanOut(n.id);
    expect(rerun.email).toEqual({ [owner.id]: "sent", [adminId]: "sent" });
    expect(smtp.to(adminEmail)).toHaveLength(1);
    expect(smtp.to(ownerEmail)).toEqual([]);
    // Finished: later sweeps send nothing for it.
    await sweepNotifications(at(100));
    expect((await events()).filter((id) => id.startsWith(`notify-${n.id}-again-`))).toHaveLength(2);
  });
});
