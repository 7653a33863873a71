/**
 * A change racing the removal of what it changes, over real HTTP: every answer is the changed
 * resource or 404 `not_found`, never a 5xx. Each tool checks the resource and then writes it; a
 * removal landing between the two used to surface as the database's "record not found" (a 500).
 */
import { describe, expect, it } from "vitest";
import { api, createTenant, type Tenant } from "../helpers/fixtures";

type Call = (name: string, args: object) => Promise<{ status: number; body: any }>;

function toolsOf(tenant: Tenant): Call {
  const call = api(tenant.key);
  return (name, args) => call(`/api/v1/tools/${name}`, { method: "POST", json: args });
}

async function result(call: Call, name: string, args: object): Promise<any> {
  const res = await call(name, args);
  expect(res.status, `${name}: ${JSON.stringify(res.body)}`).toBe(200);
  return res.body.result;
}

/**
 * Runs `changes` at once with `remove`, `rounds` times over fresh resources: the removal succeeds and
 * each change answers 200 or 404 `not_found` (or another refusal the caller names). Which racing
 * change lands on which side of the removal is up to the server's scheduling (on a busy machine the
 * changes sent after the removal can all still land before it), so each round also sends one change
 * once the removal has answered: it must be the 404, which keeps every round's losing side tested.
 */
async function race(
  rounds: number,
  setUp: () => Promise<string>,
  change: (id: string, i: number) => Promise<{ status: number; body: any }>,
  remove: (id: string) => Promise<{ status: number; body: any }>,
  alsoRefused: { status: number; code: string }[] = [],
): Promise<void> {
  for (let round = 0; round < rounds; round++) {
    const id = await setUp();
    // Sent in this order, half of the changes before the removal and half after it.
    const before = Array.from({ length: 3 }, (_, i) => change(id, i));
    const removal = remove(id);
    const changes = [...before, ...Array.from({ length: 3 }, (_, i) => change(id, 3 + i))];
    for (const res of await Promise.all(changes)) {
      if (res.status === 200) continue;
      const refusal = alsoRefused.find((r) => r.status === res.status && r.code === res.body?.error?.code);
      if (refusal) continue;
      expect(res, JSON.stringify(res.body)).toMatchObject({ status: 404, body: { error: { code: "not_found" } } });
    }
    expect((await removal).status).toBe(200);
    const late = await change(id, 6);
    expect(late, `a change after the removal: ${JSON.stringify(late.body)}`).toMatchObject({ status: 404, body: { error: { code: "not_found" } } });
  }
}

describe("a change racing a removal", () => {
  it("renaming a task list, board or folder while it is deleted answers it or 404", async () => {
    const tools = toolsOf(await createTenant());
    // What each kind is made, renamed and deleted with, and where its id is in the made result.
    const kinds = [
      { create: "create_task_list", rename: "rename_task_list", remove: "delete_task_list", made: "list", name: "Launch" },
      { create: "create_board", rename: "rename_board", remove: "delete_board", made: "board", name: "Moodboard" },
      { create: "create_folder", rename: "rename_folder", remove: "delete_folder", made: "folder", name: "Spring" },
    ];
    for (const kind of kinds) {
      await race(
        6,
        async () => (await result(tools, kind.create, { name: kind.name }))[kind.made].id,
        (id, i) => tools(kind.rename, { id, name: `${kind.name} ${i}` }),
        (id) => tools(kind.remove, { id }),
      );
    }
  });

  it("changing or commenting on a task while it is deleted answers it or 404", async () => {
    const tools = toolsOf(await createTenant());
    const listId = (await result(tools, "create_task_list", { name: "Launch" })).list.id;
    await race(
      8,
      async () => (await result(tools, "create_task", { listId, title: "Brief" })).task.id,
      (id, i) =>
        i % 2 ? tools("update_task", { id, title: `Brief ${i}`, status: "in_progress" }) : tools("add_task_comment", { taskId: id, body: `Note ${i}` }),
      (id) => tools("delete_task", { id }),
    );
  });

  it("editing a board's note while it is removed answers it, 409 for a stale version, or 404", async () => {
    const tools = toolsOf(await createTenant());
    const boardId = (await result(tools, "create_board", { name: "Moodboard" })).board.id;
    await race(
      8,
      async () => (await result(tools, "add_board_item", { boardId, kind: "note", text: "Hook" })).item.id,
      // Every edit names version 1: one wins, the rest are stale (409), unless the removal came first (404).
      (id, i) => tools("edit_board_item", { id, version: 1, text: `Hook ${i}` }),
      (id) => tools("remove_board_item", { id }),
      [{ status: 409, code: "conflict" }],
    );
  });
});
