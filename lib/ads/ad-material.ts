import { createHash } from "node:crypto";
import type { Principal } from "@/lib/auth/principal";
import { isCreativeVisible } from "@/lib/creatives/list-creatives";
import { getDb } from "@/lib/db/client";
import { notFound } from "@/lib/errors";
import type { Creative, CopyVariant, Upload } from "@/lib/generated/prisma/client";
import type { Platform } from "@/lib/generated/prisma/enums";
import { adProblems } from "@/lib/platforms/ad-rules";
import type { CallToAction } from "@/lib/platforms/ads-types";

/** The creatives and copy variants (of creatives the principal can see) by id; 404 naming the first missing one. */
export async function loadMaterials(
  principal: Principal,
  creativeIds: string[],
  copyVariantIds: string[],
): Promise<{ creatives: Map<string, Creative & { uploads: Upload[] }>; copies: Map<string, CopyVariant> }> {
  const db = getDb();
  for (const id of new Set(creativeIds)) if (!(await isCreativeVisible(principal, id))) throw notFound(`Creative ${id}`);
  const creatives = await db.creative.findMany({ where: { id: { in: creativeIds }, workspaceId: principal.workspaceId } });
  const uploads = await db.upload.findMany({ where: { workspaceId: principal.workspaceId, creativeId: { in: creativeIds }, status: "completed" } });
  const copies = copyVariantIds.length ? await db.copyVariant.findMany({ where: { id: { in: copyVariantIds }, workspaceId: principal.workspaceId } }) : [];
  for (const id of copyVariantIds) if (!copies.some((c) => c.id === id)) throw notFound(`Copy variant ${id}`);
  // A copy variant is as visible as its creative: a member limited to some folders cannot put the text of a
  // creative outside them into an ad (or read it back in a dry run's names).
  for (const creativeId of new Set(copies.map((c) => c.creativeId))) {
    if (!(await isCreativeVisible(principal, creativeId))) throw notFound(`Copy variant ${copies.find((c) => c.creativeId === creativeId)!.id}`);
  }
  return {
    creatives: new Map(creatives.map((c) => [c.id, { ...c, uploads: uploads.filter((u) => u.creativeId === c.id) }])),
    copies: new Map(copies.map((c) => [c.id, c])),
  };
}

/**
 * Everything that keeps this creative + copy from becoming an ad on the platform (empty when it can).
 * Where the creative's media is does not matter: building the ad sends it to the account first.
 */
export function materialProblems(platform: Platform, creative: Creative, copy: CopyVariant | null, callToAction: CallToAction): string[] {
  const problems: string[] = [];
  if (creative.status !== "ready") problems.push(`creative ${creative.id}: is ${creative.status}, not ready`);
  problems.push(
    ...adProblems(
      platform,
      { id: creative.id, kind: creative.kind, width: creative.width, height: creative.height, durationMs: creative.durationMs, sizeBytes: creative.sizeBytes },
      { headline: copy?.headline ?? null, primaryText: copy?.primaryText ?? null, description: copy?.description ?? null },
      callToAction,
    ),
  );
  return problems;
}

/**
 * The client reference of the ad for (ad set, creative, copy variant): one ad per pair per ad
 * set, so a repeated or restarted build finds the ad it made before, here and on the platform.
 */
export function adClientRef(adSetId: string, creativeId: string, copyVariantId: string | null): string {
  return (
    "ad-" +
    createHash("sha256")
      .update(`${adSetId}|${creativeId}|${copyVariantId ?? "-"}`)
      .digest("hex")
      .slice(0, 40)
  );
}

/** A readable default name: the file name and the copy's label or headline. */
export function defaultAdName(creative: Creative, copy: CopyVariant | null): string {
  const text = copy ? (copy.label ?? copy.headline ?? copy.id) : "no copy";
  return `${creative.fileName} · ${text}`.slice(0, 200);
}
