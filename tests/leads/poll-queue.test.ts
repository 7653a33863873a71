/**
 * Which workspaces the every-minute lead poll takes, in-process against a real database: each once, least
 * recently polled first, and every poll moves its workspace to the back, whatever the poll found. Before, the
 * order came from the accounts' forms, so accounts that never get a polled form (a second platform_a account,
 * one without lead forms, a disconnected one) stayed first for ever and kept every other workspace out.
 */
import { describe, expect, it } from "vitest";
import { useFreshDatabase } from "../helpers/in-process-db";

await useFreshDatabase("lead_poll_queue");
const { createWorkspace } = await import("@/lib/workspaces/workspaces");
const { getDb } = await import("@/lib/db/client");
const { getAdAccount } = await import("@/lib/platforms");
const { pullWorkspaceLeads, workspacesToPoll } = await import("@/lib/leads/pull");

describe("the scheduled lead poll's queue", () => {
  it("takes each workspace once, least recently polled first, and moves every polled one to the back", async () => {
    const names = ["first", "second", "third"];
    const ids: string[] = [];
    for (const name of names) {
      const { workspaceId } = await createWorkspace({ name, plan: "pro" });
      await getAdAccount(workspaceId, "platform_a"); // its sandbox account, made when first read
      ids.push(workspaceId);
    }
    // The first workspace also has a platform_a account that is not its default: no poll ever reads its forms.
    await getDb().adAccount.create({
      data: { id: "acc_second_a", workspaceId: ids[0]!, platform: "platform_a", externalAccountId: "act_999000111", status: "active" },
    });
    const archived = (await createWorkspace({ name: "archived", plan: "pro" })).workspaceId;
    await getAdAccount(archived, "platform_a");
    await getDb().workspace.update({ where: { id: archived }, data: { status: "archived" } });

    const queue = await workspacesToPoll(10);
    expect([...queue].sort()).toEqual([...ids].sort());

    // Two polls of two: the first two taken are polled, then the third comes first, then the two in poll order.
    const taken = await workspacesToPoll(2);
    for (const id of taken) await pullWorkspaceLeads(id);
    const next = await workspacesToPoll(3);
    expect(next[0]).toBe(ids.find((id) => !taken.includes(id)));
    expect(next.slice(1)).toEqual(taken);
    await pullWorkspaceLeads(next[0]!);
    expect(await workspacesToPoll(3)).toEqual([...taken, next[0]]);
  });
});
