import type { Platform } from "@/lib/generated/prisma/enums";
import { localDayHour } from "../local-time";
import type { AdAccountRef } from "../types";
import { execute, row, TABLE, ts } from "./store";

export { localDayHour };

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

const ACCOUNT_COLUMNS = `"externalAccountId", "workspaceId", platform, currency, "timeZone", "offsetSeconds", "deliveredThrough"`;

/** The sandbox's record of the account, or null before its first use. */
export function findSandboxAccount(externalAccountId: string): Promise<SandboxAccountRow | null> {
  return row<SandboxAccountRow>(`SELECT ${ACCOUNT_COLUMNS} FROM ${TABLE.accounts} WHERE "externalAccountId" = $1`, externalAccountId);
}

/** The sandbox's record of the account, made on first use with delivery starting at the current simulated hour. */
export async function sandboxAccount(account: Pick<AdAccountRef, "externalAccountId" | "workspaceId" | "platform">): Promise<SandboxAccountRow> {
  const found = await findSandboxAccount(account.externalAccountId);
  if (found) return found;
  const settings = SANDBOX_ACCOUNT_SETTINGS[account.platform];
  await execute(
    `INSERT INTO ${TABLE.accounts} ("externalAccountId", "workspaceId", platform, currency, "timeZone", "deliveredThrough")
     VALUES ($1, $2, $3, $4, $5, $6::timestamp(3)) ON CONFLICT DO NOTHING`,
    account.externalAccountId,
    account.workspaceId,
    account.platform,
    settings.currency,
    settings.timeZone,
    ts(floorHour(Date.now())),
  );
  const made = await findSandboxAccount(account.externalAccountId);
  if (!made) throw new Error(`the sandbox could not record ad account ${account.externalAccountId}`);
  return made;
}

/** Moves the account's simulated clock `seconds` forward (delivery follows on the next sync). */
export async function advanceClock(row: SandboxAccountRow, seconds: number): Promise<void> {
  await execute(`UPDATE ${TABLE.accounts} SET "offsetSeconds" = "offsetSeconds" + $2::int WHERE "externalAccountId" = $1`, row.externalAccountId, seconds);
  row.offsetSeconds += seconds;
}

/** Simulated time: the wall clock plus the account's advanced offset. */
export function simulatedNow(row: Pick<SandboxAccountRow, "offsetSeconds">, wallMs = Date.now()): number {
  return wallMs + row.offsetSeconds * 1000;
}
