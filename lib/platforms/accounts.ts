import { getConfig } from "@/lib/services";
import { getDb } from "@/lib/db/client";
import type { Platform } from "@/lib/generated/prisma/enums";
import { newId } from "@/lib/ids";
import { randomInt } from "node:crypto";
import type { AdAccountRef } from "./types";

function externalAccountId(platform: Platform): string {
  let digits = String(randomInt(1, 10));
  while (digits.length < 15) digits += String(randomInt(0, 10));
  return platform === "platform_a" ? `act_${digits}` : digits;
}

/**
 * The workspace's ad account on `platform` in the configured mode, or null when none is
 * connected. In sandbox mode every workspace has one per platform from the start: it is
 * created on first use (safe under concurrency).
 */
export async function getAdAccount(workspaceId: string, platform: Platform): Promise<AdAccountRef | null> {
  const db = getDb();
  const mode = getConfig().platforms.mode;
  const existing = await db.adAccount.findUnique({ where: { workspaceId_platform: { workspaceId, platform } } });
  // A sandbox account never stands in for a live one when the service runs against the real platforms.
  if (existing) return existing.mode === mode ? existing : null;
  if (mode !== "sandbox") return null;
  await db.adAccount.createMany({
    data: [{ id: newId("adacct"), workspaceId, platform, mode: "sandbox", externalAccountId: externalAccountId(platform) }],
    skipDuplicates: true,
  });
  return db.adAccount.findUniqueOrThrow({ where: { workspaceId_platform: { workspaceId, platform } } });
}
