import { getDb } from "@/lib/db/client";
import type { Platform } from "@/lib/generated/prisma/enums";
import type { AdAccountRef } from "../types";

export const HOUR_MS = 3_600_000;

/** Each platform's sandbox account settings: different zones, so day boundaries really are per account. */
export const SANDBOX_ACCOUNT_SETTINGS: Record<Platform, { currency: string; timeZone: string; name: string }> = {
  platform_a: { currency: "USD", timeZone: "America/New_York", name: "Sandbox ad account A" },
  platform_b: { currency: "USD", timeZone: "UTC", name: "Sandbox advertiser B" },
};

export interface SandboxAccountRow {
  externalAccountId: string;
  workspaceId: string;
  platform: Platform;
  currency: string;
  timeZone: string;
  offsetSeconds: number;
  deliveredThrough: Date;
}

export const floorHour = (ms: number) => Math.floor(ms / HOUR_MS) * HOUR_MS;

/** The sandbox's record of the account, made on first use with delivery starting at the current simulated hour. */
export async function sandboxAccount(account: AdAccountRef): Promise<SandboxAccountRow> {
  const db = getDb();
  const found = await db.sandboxAccount.findUnique({ where: { externalAccountId: account.externalAccountId } });
  if (found) return found;
  const settings = SANDBOX_ACCOUNT_SETTINGS[account.platform];
  await db.sandboxAccount.createMany({
    data: [
      {
        externalAccountId: account.externalAccountId,
        workspaceId: account.workspaceId,
        platform: account.platform,
        currency: settings.currency,
        timeZone: settings.timeZone,
        deliveredThrough: new Date(floorHour(Date.now())),
      },
    ],
    skipDuplicates: true,
  });
  return db.sandboxAccount.findUniqueOrThrow({ where: { externalAccountId: account.externalAccountId } });
}

/** Simulated time: the wall clock plus the account's advanced offset. */
export function simulatedNow(row: Pick<SandboxAccountRow, "offsetSeconds">, wallMs = Date.now()): number {
  return wallMs + row.offsetSeconds * 1000;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The day (YYYY-MM-DD) and hour (0-23) of the instant in the time zone. */
export function localDayHour(ms: number, timeZone: string): { date: string; hour: number } {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", hourCycle: "h23" });
    formatters.set(timeZone, f);
  }
  const parts = Object.fromEntries(f.formatToParts(new Date(ms)).map((p) => [p.type, p.value]));
  return { date: `${parts.year}-${parts.month}-${parts.day}`, hour: Number(parts.hour) % 24 };
}
