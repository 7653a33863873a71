import type { Principal } from "@/lib/auth/principal";
import { getDb } from "@/lib/db/client";
import type { Platform } from "@/lib/generated/prisma/enums";
import { afterCursor, NEWEST_FIRST, toPage } from "@/lib/pagination/cursor";
import { newId } from "@/lib/ids";
import type { AdObjectStatus, Objective } from "@/lib/platforms/ads-types";
import { toCampaign, type CampaignOut } from "./ad-schemas";
import { requireCampaign, requireNotDeleted } from "./lookups";
import { platformFor, platformForAccount } from "./platform-access";

/** The workspace's campaigns on one platform, newest first (deleted ones only when asked for by status). */
export async function listCampaigns(
  principal: Principal,
  input: { platform: Platform; status?: AdObjectStatus; limit: number; cursor?: string },
): Promise<{ campaigns: CampaignOut[]; nextCursor: string | null }> {
  const rows = await getDb().adCampaign.findMany({
    where: {
      workspaceId: principal.workspaceId,
      platform: input.platform,
      status: input.status ?? { not: "deleted" },
      ...afterCursor(input.cursor),
    },
    orderBy: NEWEST_FIRST,
    take: input.limit + 1,
  });
  const page = toPage(rows, input.limit);
  return { campaigns: page.items.map(toCampaign), nextCursor: page.nextCursor };
}

export async function getCampaign(principal: Principal, input: { id: string }): Promise<{ campaign: CampaignOut }> {
  return { campaign: toCampaign(await requireCampaign(principal, input.id)) };
}

/**
 * Creates a paused campaign on the platform, then records it. With a clientRef already used
 * in the workspace, answers that campaign (created: false) and sends nothing twice.
 */
export async function createCampaign(
  principal: Principal,
  input: { platform: Platform; name: string; objective: Objective; clientRef?: string },
): Promise<{ campaign: CampaignOut; created: boolean }> {
  const db = getDb();
  const clientRef = input.clientRef ?? newId("ref");
  const earlier = await db.adCampaign.findUnique({ where: { clientRef_workspaceId: { clientRef, workspaceId: principal.workspaceId } } });
  if (earlier) return { campaign: toCampaign(earlier), created: false };
  const { account, api } = await platformFor(principal, input.platform);
  const made = await api.createCampaign(account, { clientRef, name: input.name, objective: input.objective, status: "paused" });
  const { count } = await db.adCampaign.createMany({
    data: [
      {
        id: newId("cmp"),
        workspaceId: principal.workspaceId,
        adAccountId: account.id,
        platform: input.platform,
        clientRef,
        externalId: made.externalId,
        name: made.name,
        objective: made.objective,
        status: made.status,
        createdById: principal.userId,
      },
    ],
    skipDuplicates: true,
  });
  const row = await db.adCampaign.findUniqueOrThrow({ where: { clientRef_workspaceId: { clientRef, workspaceId: principal.workspaceId } } });
  return { campaign: toCampaign(row), created: count > 0 };
}

/** Renames a campaign on the platform and here. */
export async function updateCampaign(principal: Principal, input: { id: string; name?: string }): Promise<{ campaign: CampaignOut }> {
  const row = await requireCampaign(principal, input.id);
  requireNotDeleted(row, "Campaign");
  if (input.name === undefined || input.name === row.name) return { campaign: toCampaign(row) };
  const { account, api } = await platformForAccount(principal, row.adAccountId);
  const updated = await api.updateCampaign(account, row.externalId, { name: input.name, clientRef: newId("ref") });
  const saved = await getDb().adCampaign.update({ where: { id: row.id }, data: { name: updated.name } });
  return { campaign: toCampaign(saved) };
}
