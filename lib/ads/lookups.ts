import type { Principal } from "@/lib/auth/principal";
import { getDb } from "@/lib/db/client";
import { AppError, notFound } from "@/lib/errors";
import type { Ad, AdCampaign, AdSet } from "@/lib/generated/prisma/client";

/** Lookups scoped to the principal's workspace: another workspace's ids are simply not found. */

export async function requireCampaign(principal: Pick<Principal, "workspaceId">, id: string): Promise<AdCampaign> {
  const row = await getDb().adCampaign.findFirst({ where: { id, workspaceId: principal.workspaceId } });
  if (!row) throw notFound("Campaign");
  return row;
}

export async function requireAdSet(principal: Pick<Principal, "workspaceId">, id: string): Promise<AdSet> {
  const row = await getDb().adSet.findFirst({ where: { id, workspaceId: principal.workspaceId } });
  if (!row) throw notFound("Ad set");
  return row;
}

export async function requireAd(principal: Pick<Principal, "workspaceId">, id: string): Promise<Ad> {
  const row = await getDb().ad.findFirst({ where: { id, workspaceId: principal.workspaceId } });
  if (!row) throw notFound("Ad");
  return row;
}

/** Deleted objects stay readable but cannot be changed. */
export function requireNotDeleted(row: { status: string; id: string }, what: string): void {
  if (row.status === "deleted") throw new AppError("conflict", `${what} ${row.id} was deleted and cannot be changed`);
}

/** A clear `invalid_input` whose message starts `Invalid input:` like every argument refusal. */
export function invalidArgument(detail: string): AppError {
  return new AppError("invalid_input", `Invalid input: ${detail}`);
}
