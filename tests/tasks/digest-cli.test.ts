/**
 * `npm run --silent admin -- tasks digest`: the operator runs a workspace's task.due digest now, as the
 * quarter-hourly job would in the owner's morning; the webhook reaches a real local receiver.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { adminCli } from "../helpers/admin-cli";
import { admin, createTenant, type Tenant } from "../helpers/fixtures";
import { toolResult } from "../tools/helpers";
import { startReceiver, type Receiver } from "../webhooks/helpers/receiver";

let tenant: Tenant;
let receiver: Receiver;
const env = () => ({ DATA_DIR: inject("dataDir"), DATABASE_URL: inject("databaseUrl") });

beforeAll(async () => {
  tenant = await createTenant();
  receiver = await startReceiver();
  await toolResult(tenant.key, "set_webhook_url", { url: receiver.url });
});
afterAll(() => receiver.close());

describe("admin tasks digest", () => {
  it("sends the due digest at the given instant whatever the hour, once per local day", async () => {
    const { list } = await toolResult(tenant.key, "create_task_list", { name: "Launch" });
    const add = async (title: string, dueDate: string) =>
      (await toolResult(tenant.key, "create_task", { listId: list.id, title, dueDate, assigneeIds: [tenant.ownerUserId] })).task;
    const soon = await add("Brief the agency", "2030-03-02");
    const late = await add("Approve the cutdowns", "2030-02-28");
    await add("Later", "2030-03-09");

    // 20:00 UTC is past the morning window the job keeps to: the operator's run sends anyway.
    const run = await adminCli(["tasks", "digest", "--workspace", tenant.workspaceId, "--now", "2030-03-01T20:00:00Z"], env());
    expect(run.status).toBe(0);
    expect(run.json).toEqual({
      workspaceId: tenant.workspaceId,
      timeZone: "UTC",
      date: "2030-03-01",
      sent: true,
      reason: "sent",
      eventId: expect.any(String),
      taskCount: 2,
    });
    const [delivery] = await receiver.waitFor(1, { filter: (r) => JSON.parse(r.body).type === "task.due", timeoutMs: 20_000 });
    const event = JSON.parse(delivery!.body);
    expect(event.id).toBe(run.json.eventId);
    expect(delivery!.headers["service-signature"]).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(event.data.date).toBe("2030-03-01");
    expect(event.data.tasks.map((t: any) => [t.taskId, t.kind])).toEqual([
      [late.id, "overdue"],
      [soon.id, "due_soon"],
    ]);

    // Repeats go over the server's admin socket, the path the CLI just took, without another process start.
    const again = { json: await admin(["tasks", "digest", "--workspace", tenant.workspaceId, "--now", "2030-03-01T21:00:00Z"]) };
    expect(again.json).toMatchObject({ sent: false, reason: "already_sent", eventId: run.json.eventId });
    const nextDay = { json: await admin(["tasks", "digest", "--workspace", tenant.workspaceId, "--now", "2030-03-05T09:00:00Z"]) };
    expect(nextDay.json).toMatchObject({ sent: false, reason: "nothing_due", eventId: null, date: "2030-03-05" });
    await new Promise((r) => setTimeout(r, 500));
    expect(receiver.requests.filter((r) => JSON.parse(r.body).type === "task.due")).toHaveLength(1);
  }, 180_000);

  it("refuses bad input with the error envelope and exit 1", async () => {
    const cases: [string[], string][] = [
      [["tasks", "digest"], "invalid_request"],
      [["tasks", "digest", "--workspace", tenant.workspaceId, "--now", "tomorrow"], "invalid_request"],
      [["tasks", "digest", "--workspace", "ws_missing"], "not_found"],
    ];
    for (const [args, code] of cases) {
      const out = await adminCli(args, env());
      expect(out.status, args.join(" ")).toBe(1);
      expect(out.json, args.join(" ")).toEqual({ error: { code, message: expect.any(String) } });
    }
  }, 180_000);
});
