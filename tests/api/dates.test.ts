/**
 * Dates and times given to the API are refused as input when the database could not hold them: year 0000
 * passes a four-digit ISO format but exists neither in the calendar nor in PostgreSQL. Before, each of these
 * answered 500 (or, for the CSV export, cut the stream off after its headers).
 */
import { describe, expect, it } from "vitest";
import { api, createTenant } from "../helpers/fixtures";
import { callTool, toolResult } from "../tools/helpers";

describe("dates in year 0000", () => {
  it("are refused with 400 by every kind of date input: a task's due date, list filters, the leads export", async () => {
    const t = await createTenant();
    const { list } = await toolResult(t.key, "create_task_list", { name: "Dates" });
    const refused = [
      await callTool(t.key, "create_task", { listId: list.id, title: "Old", dueDate: "0000-01-01" }),
      await callTool(t.key, "list_tasks", { dueFrom: "0000-01-01" }),
      await callTool(t.key, "list_creatives", { createdAfter: "0000-01-01T00:00:00Z" }),
      // An offset can carry year 0001 back into year 0000 (UTC).
      await callTool(t.key, "list_leads", { submittedAfter: "0001-01-01T00:00:00+01:00" }),
      await api(t.key)("/api/v1/leads/export.csv?submittedAfter=0000-06-01T00:00:00Z"),
    ];
    for (const res of refused) {
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(/year 0001 or later/);
    }
    // Year 0001 itself is a date like any other.
    expect((await callTool(t.key, "list_tasks", { dueFrom: "0001-01-01" })).status).toBe(200);
    expect((await toolResult(t.key, "list_tasks", { listId: list.id })).tasks).toEqual([]);
  });

  it("in a crafted page cursor answer 400 Invalid cursor, over REST and as a tool", async () => {
    const t = await createTenant();
    const cursor = (...parts: string[]) => Buffer.from(JSON.stringify(parts)).toString("base64url");
    const refused = [
      await api(t.key)(`/api/v1/webhooks/deliveries?cursor=${cursor("0000-01-01T00:00:00.000Z", "x")}`),
      await api(t.key)(`/api/v1/creatives?cursor=${cursor("-000001-01-01T00:00:00.000Z", "x")}`),
      await api(t.key)(`/api/v1/creatives?sort=oldest&cursor=${cursor("oldest", "x", "a")}`),
      await api(t.key)(`/api/v1/creatives?sort=oldest&cursor=${cursor("oldest", "0000-01-01T00:00:00.000Z", "a")}`),
    ];
    for (const res of refused) {
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: "invalid_request", message: expect.stringMatching(/^Invalid cursor/) });
    }
    const tool = await callTool(t.key, "list_uploads", { cursor: cursor("0000-12-31T00:00:00.000Z", "upl_x") });
    expect(tool.status).toBe(400);
    expect(tool.body.error).toMatchObject({
      code: "invalid_input",
      message: "Invalid input: Invalid cursor: pass back the nextCursor value of a previous page unchanged",
    });
    expect((await api(t.key)(`/api/v1/creatives?cursor=${cursor("0001-01-01T00:00:00.000Z", "x")}`)).status).toBe(200);
  });
});
