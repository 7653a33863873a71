/**
 * Notifications to people (issue 27, item 4), through the real stack: a server started with
 * SMTP_URL pointing at a real SMTP server on loopback, a local HTTP receiver standing in for the
 * workspace's Slack incoming webhook, and every action made over REST tool calls. Each member's
 * choices are kept (one who switched everything off receives nothing), each person gets one email
 * per event, and Slack gets each event of the kinds it takes.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { admin } from "../helpers/fixtures";
import { pngImage } from "../helpers/media-fixtures";
import { startServer, type TestServer } from "../helpers/server";
import { fileServer } from "../import/import-tool-calls";
import { callTool } from "../tools/helpers";
import { startReceiver, type Receiver } from "../webhooks/helpers/receiver";
import { startSmtp, until } from "./helpers";

let server: TestServer;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let slack: Receiver;

beforeAll(async () => {
  smtp = await startSmtp();
  slack = await startReceiver();
  server = await startServer({ env: { SMTP_URL: smtp.url, PUBLIC_BASE_URL: "http://adloom.test" } });
}, 120_000);
afterAll(async () => {
  await server?.stop();
  await smtp?.close();
  await slack?.close();
});

const tool = async (key: string, name: string, args: unknown = {}) => {
  const res = await callTool(key, name, args, {}, server.url);
  if (res.status !== 200) throw new Error(`${name} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.result;
};
const cli = <T = any>(argv: string[]) => admin<T>(argv, server.dataDir);

interface Person {
  userId: string;
  email: string;
  key: string;
}

async function person(workspaceId: string, role: "admin" | "editor" | "viewer", label: string): Promise<Person> {
  const email = `${label}-${Date.now()}@example.com`;
  const { userId } = await cli(["member", "add", "--workspace", workspaceId, "--email", email, "--role", role]);
  const { key } = await cli(["key", "create", "--workspace", workspaceId, "--user", userId]);
  return { userId, email, key };
}

const slackTexts = () => slack.requests.map((r) => JSON.parse(r.body) as { text: string; blocks: { text: { text: string } }[] });

describe("notifications by email and Slack", () => {
  it("tells each person what concerns them, as they chose, once; Slack gets every event of its kinds", async () => {
    const ownerEmail = `owner-${Date.now()}@example.com`;
    const { workspaceId, ownerUserId } = await cli(["workspace", "create", "--name", "Notify Co", "--plan", "pro", "--owner-email", ownerEmail]);
    const owner: Person = {
      userId: ownerUserId,
      email: ownerEmail,
      key: (await cli(["key", "create", "--workspace", workspaceId, "--user", ownerUserId])).key,
    };
    const reviewer = await person(workspaceId, "editor", "rita");
    const quiet = await person(workspaceId, "editor", "quinn");

    // Email goes through SMTP on this server: the settings say "sent", not "waits in the outbox".
    const mine = await tool(reviewer.key, "get_my_notification_preferences");
    expect(mine).toMatchObject({ emailAddress: reviewer.email, emailTransport: "smtp" });
    expect(mine.preferences.every((p: { email: boolean }) => p.email)).toBe(true);
    const allOff = Object.fromEntries(mine.preferences.map((p: { kind: string }) => [p.kind, false]));
    const off = await tool(quiet.key, "set_my_notification_preferences", { email: allOff });
    expect(off.preferences.filter((p: { email: boolean }) => p.email)).toEqual([]);

    // Slack takes every kind but task_due; the URL is checked by the webhook SSRF guard and kept secret.
    const bad = await callTool(owner.key, "set_slack_channel", { url: "http://203.0.113.9/hook" }, {}, server.url);
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^Invalid input: url: The address 203\.0\.113\.9 is not a public address/);
    const hooks = new URL(slack.url).origin;
    const { slack: channel } = await tool(owner.key, "set_slack_channel", { url: `${hooks}/services/T1/B2/secret-part` });
    expect(channel.urlHint).toBe(`${hooks}/services/…`);
    await tool(owner.key, "set_slack_channel", { kinds: mine.preferences.map((p: { kind: string }) => p.kind).filter((k: string) => k !== "task_due") });
    expect(JSON.stringify((await tool(owner.key, "get_slack_channel")).slack)).not.toContain("secret-part");

    // Review requested -> the reviewers (quiet opted out); approved and changes requested -> who asked.
    await cli(["library", "seed", "--workspace", workspaceId, "--count", "1"]);
    const [creative] = (await tool(owner.key, "list_creatives", { limit: 1 })).creatives;
    await tool(owner.key, "request_review", { creativeId: creative.id, reviewerIds: [reviewer.userId, quiet.userId], note: "Before Friday" });
    const asked = await until("review request email", () => smtp.to(reviewer.email)[0]);
    expect(asked.subject.endsWith(` asked you to review ${creative.fileName}`)).toBe(true);
    expect(asked.text).toContain("Note: Before Friday");
    expect(asked.text).toContain(`Open it in Adloom: http://adloom.test/dashboard/library/${creative.id}`);
    expect(asked.text).toContain("http://adloom.test/dashboard/settings/notifications");

    await tool(reviewer.key, "set_review_status", { creativeId: creative.id, status: "changes_requested", note: "Logo too small" });
    await until("changes requested email", () => smtp.to(owner.email).some((m) => m.subject.includes("asked for changes to")));
    await tool(reviewer.key, "set_review_status", { creativeId: creative.id, status: "approved" });
    await until("approved email", () => smtp.to(owner.email).some((m) => m.subject.includes(`approved ${creative.fileName}`)));

    // A mention in a review comment: the owner (by email address) and quiet (opted out).
    await tool(reviewer.key, "add_comment", { creativeId: creative.id, body: `@${owner.email} and @${quiet.email.split("@")[0]}: see the pin` });
    const mention = await until("mention email", () => smtp.to(owner.email).find((m) => m.subject.includes("mentioned you")));
    expect(mention.text).toContain("see the pin");

    // Task assigned, then the morning digest of tasks due.
    const { list } = await tool(owner.key, "create_task_list", { name: "Launch" });
    const { task } = await tool(owner.key, "create_task", {
      listId: list.id,
      title: "Cut the 9x16",
      dueDate: "2030-03-02",
      assigneeIds: [reviewer.userId, quiet.userId],
    });
    const assigned = await until("task email", () => smtp.to(reviewer.email).find((m) => m.subject.includes("assigned you: Cut the 9x16")));
    expect(assigned.text).toContain(`http://adloom.test/dashboard/tasks?task=${task.id}`);
    await cli(["tasks", "digest", "--workspace", workspaceId, "--now", "2030-03-01T09:00:00Z"]);
    const due = await until("due email", () => smtp.to(reviewer.email).find((m) => m.subject.startsWith("Tasks due")));
    expect(due.text).toContain("- Cut the 9x16: due 2030-03-02");

    // An import finishes -> whoever started it.
    const files = await fileServer({ "/a.png": { type: "image/png", bytes: await pngImage(20, 10) } });
    try {
      const { connection } = await tool(reviewer.key, "connect_storage", { provider: "url", name: "Links" });
      await tool(reviewer.key, "import_files", { connectionId: connection.id, paths: [`${files.url}/a.png`] });
      const imported = await until("import email", () => smtp.to(reviewer.email).find((m) => m.subject.startsWith("Import finished")), 60_000);
      expect(imported.subject).toBe("Import finished: 1 imported");
    } finally {
      await files.close();
    }

    // Slack: one message per event of its kinds, none for task_due, in the documented incoming-webhook shape.
    const texts = await until("slack messages", () => (slackTexts().length >= 6 ? slackTexts() : null), 30_000);
    const titles = texts.map((t) => t.text.split(": http")[0]);
    expect(titles).toEqual(
      expect.arrayContaining([
        expect.stringContaining(`asked you to review ${creative.fileName}`),
        expect.stringContaining(`asked for changes to ${creative.fileName}`),
        expect.stringContaining(`approved ${creative.fileName}`),
        expect.stringContaining("mentioned you"),
        expect.stringContaining("assigned you: Cut the 9x16"),
        "Import finished: 1 imported",
      ]),
    );
    expect(titles.some((t) => t.startsWith("Tasks due"))).toBe(false);
    for (const t of texts) expect(t.blocks[0]!.text.text).toMatch(/<http:\/\/adloom\.test\/dashboard\/[^|]+\|Open in Adloom>/);
    expect(slack.requests.every((r) => r.path === "/services/T1/B2/secret-part" && r.headers["content-type"] === "application/json")).toBe(true);

    // Quiet switched everything off: nothing. Nobody got the same email twice.
    await new Promise((r) => setTimeout(r, 1500));
    expect(smtp.to(quiet.email)).toEqual([]);
    for (const email of [owner.email, reviewer.email]) {
      const subjects = smtp.to(email).map((m) => m.subject);
      expect(new Set(subjects).size, subjects.join("\n")).toBe(subjects.length);
    }
    // The actor is not told about their own action: the owner requested, so no "asked you to review" for them.
    expect(smtp.to(owner.email).some((m) => m.subject.includes("asked you to review"))).toBe(false);
    expect(slackTexts()).toHaveLength(6);
  }, 240_000);

  it("an address the mail server refuses for good costs only that person's email, not everyone's after them", async () => {
    const ownerEmail = `owner-${Date.now()}@example.com`;
    const { workspaceId, ownerUserId } = await cli(["workspace", "create", "--name", "Bounce Co", "--plan", "pro", "--owner-email", ownerEmail]);
    const ownerKey = (await cli(["key", "create", "--workspace", workspaceId, "--user", ownerUserId])).key;
    // Recipients are mailed in the order they joined: the refused address comes first.
    const gone = await person(workspaceId, "editor", "bounce");
    const gina = await person(workspaceId, "editor", "gina");
    const { list } = await tool(ownerKey, "create_task_list", { name: "Bounces" });
    await tool(ownerKey, "create_task", { listId: list.id, title: "Check the bounce", assigneeIds: [gone.userId, gina.userId] });
    // The refusal is not retried for minutes (the step's backoff) before the next person's email: it arrives at once.
    const mail = await until(
      "the second assignee's email",
      () => smtp.to(gina.email).find((m) => m.subject.endsWith("assigned you: Check the bounce")),
      20_000,
    );
    expect(mail.text).toContain("/dashboard/tasks?task=");
    expect(smtp.to(gone.email)).toEqual([]);
  }, 120_000);

  it("the Slack channel is for owners and admins; a test message arrives; another workspace sees none of it", async () => {
    const { workspaceId, ownerUserId } = await cli(["workspace", "create", "--name", "Slack Co", "--plan", "pro"]);
    const ownerKey = (await cli(["key", "create", "--workspace", workspaceId, "--user", ownerUserId])).key;
    const editor = await person(workspaceId, "editor", "ed");
    const denied = await callTool(editor.key, "set_slack_channel", { url: `${new URL(slack.url).origin}/services/x` }, {}, server.url);
    expect(denied.status).toBe(403);
    expect((await callTool(ownerKey, "send_slack_test", {}, {}, server.url)).status).toBe(404);
    await tool(ownerKey, "set_slack_channel", { url: `${new URL(slack.url).origin}/services/slack-co` });
    const before = slack.requests.length;
    expect(await tool(ownerKey, "send_slack_test")).toEqual({ sent: true });
    await until("test message", () => slack.requests.length > before);
    expect(JSON.parse(slack.requests.at(-1)!.body).text).toContain("Adloom test message");
    expect(slack.requests.at(-1)!.path).toBe("/services/slack-co");

    const { workspaceId: otherWs, ownerUserId: otherOwner } = await cli(["workspace", "create", "--name", "Other", "--plan", "pro"]);
    const otherKey = (await cli(["key", "create", "--workspace", otherWs, "--user", otherOwner])).key;
    expect(await tool(otherKey, "get_slack_channel")).toEqual({ slack: null });
    expect((await callTool(otherKey, "delete_slack_channel", {}, {}, server.url)).status).toBe(404);
    expect(await tool(ownerKey, "delete_slack_channel")).toEqual({ ok: true });
    expect(await tool(ownerKey, "get_slack_channel")).toEqual({ slack: null });
  }, 120_000);
});
