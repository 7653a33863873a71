import { describe, expect, it } from "vitest";
import { useFreshDatabase } from "../helpers/in-process-db";

await useFreshDatabase("oauth_purge");
const { getDb } = await import("@/lib/db/client");
const { purgeExpiredOAuthRecords } = await import("@/lib/oauth/purge");
const { createWorkspace } = await import("@/lib/workspaces/workspaces");

const DAY = 86_400_000;

describe("the daily OAuth purge", () => {
  it("deletes clients nobody connected within 30 days of registering, and keeps recent and connected ones", async () => {
    const db = getDb();
    const now = new Date();
    const old = new Date(now.getTime() - 31 * DAY);
    const client = (id: string, createdAt: Date) => db.oAuthClient.create({ data: { id, name: id, redirectUris: ["https://x.example/cb"], createdAt } });
    await client("oac_unused_old", old);
    await client("oac_unused_new", new Date(now.getTime() - 2 * DAY));
    await client("oac_connected_old", old);
    const { workspaceId, ownerUserId } = await createWorkspace({ name: "Purge", plan: "pro", ownerEmail: `purge-${Date.now()}@example.com` });
    await db.oAuthGrant.create({
      data: { id: "oag_kept", clientId: "oac_connected_old", userId: ownerUserId!, workspaceId, scopes: ["upload"], resource: "http://localhost/api/mcp" },
    });

    const purged = await purgeExpiredOAuthRecords(now);
    expect(purged.clients).toBe(1);
    const left = (await db.oAuthClient.findMany({ orderBy: { id: "asc" } })).map((c) => c.id);
    expect(left).toEqual(["oac_connected_old", "oac_unused_new"]);
  });
});
