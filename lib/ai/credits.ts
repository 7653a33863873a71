import { getDb } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import type { Prisma } from "@/lib/generated/prisma/client";
import { newId } from "@/lib/ids";

/**
 * The credit ledger. `workspaces.credits` is the running balance (what GET /api/v1/me shows); grants add
 * to it, and each model call moves it three times, each in one transaction with its ledger row:
 *
 *   reserve  the worst case leaves the balance (a conditional UPDATE: refused when it does not fit, so
 *            concurrent calls can never take the balance below zero)
 *   capture  the actual cost (from the provider's token usage) is charged; the rest of the reservation returns
 *   release  the call failed: the whole reservation returns
 *
 * So at every moment: balance = grants − charges of captured calls − reservations of calls in flight.
 */

type Tx = Prisma.TransactionClient;

/** A call that held its reservation this long died with its process; its reservation returns. */
export const STALE_RESERVATION_MS = 15 * 60_000;

/** Adds credits to a workspace's balance with a ledger row saying why (inside the caller's transaction). */
export async function grantCredits(tx: Tx, workspaceId: string, credits: number, reason: string): Promise<void> {
  if (credits <= 0) return;
  await tx.aiCreditGrant.create({ data: { id: newId("grant"), workspaceId, credits, reason } });
  await tx.$executeRaw`UPDATE workspaces SET credits = credits + ${credits} WHERE id = ${workspaceId}`;
}

/** The ledger row of a balance a workspace is created with (its `credits` column already holds it). */
export async function recordOpeningGrant(tx: Tx, workspaceId: string, credits: number, reason: string): Promise<void> {
  if (credits > 0) await tx.aiCreditGrant.create({ data: { id: newId("grant"), workspaceId, credits, reason } });
}

/** Tops the balance up to `target` (a plan's allowance), granting the difference; nothing when it already holds that much. */
export async function topUpCredits(tx: Tx, workspaceId: string, target: number, reason: string): Promise<void> {
  const rows = await tx.$queryRaw<{ credits: number }[]>`SELECT credits FROM workspaces WHERE id = ${workspaceId} FOR UPDATE`;
  const current = rows[0]?.credits ?? 0;
  await grantCredits(tx, workspaceId, target - current, reason);
}

export interface Reservation {
  usageId: string;
  reservedCredits: number;
}

export interface ReserveInput {
  workspaceId: string;
  userId: string;
  feature: string;
  provider: string;
  model: string;
  credits: number;
}

/** Holds `credits` back from the balance for one model call, or refuses with `limit_exceeded` when they do not fit. */
export async function reserveCredits(input: ReserveInput): Promise<Reservation> {
  const db = getDb();
  await releaseStaleReservations(input.workspaceId);
  const usageId = newId("aiu");
  const reserved = await db.$transaction(async (tx) => {
    const taken =
      await tx.$executeRaw`UPDATE workspaces SET credits = credits - ${input.credits} WHERE id = ${input.workspaceId} AND credits >= ${input.credits}`;
    if (taken === 0) return false;
    await tx.aiUsage.create({
      data: {
        id: usageId,
        workspaceId: input.workspaceId,
        userId: input.userId,
        feature: input.feature,
        provider: input.provider,
        model: input.model,
        reservedCredits: input.credits,
      },
    });
    return true;
  });
  if (!reserved) {
    const balance = await creditBalance(input.workspaceId);
    throw new AppError(
      "limit_exceeded",
      `Out of AI credits: this call may cost up to ${input.credits} credits and the workspace has ${balance} left. ` +
        "Credits come with the Pro plan; a shorter request reserves less (docs/ai.md).",
    );
  }
  return { usageId, reservedCredits: input.credits };
}

/**
 * Charges the actual cost (never more than was reserved) and returns the rest. Only a reservation still
 * held is settled, so a capture that races a stale-release or a second capture changes nothing.
 */
export async function captureCredits(
  workspaceId: string,
  reservation: Reservation,
  actual: { credits: number; inputTokens: number; outputTokens: number },
): Promise<number> {
  const charged = Math.min(Math.max(0, actual.credits), reservation.reservedCredits);
  const refund = reservation.reservedCredits - charged;
  await getDb().$transaction(async (tx) => {
    const settled = await tx.aiUsage.updateMany({
      where: { id: reservation.usageId, workspaceId, status: "reserved" },
      data: { status: "captured", chargedCredits: charged, inputTokens: actual.inputTokens, outputTokens: actual.outputTokens, settledAt: new Date() },
    });
    if (settled.count === 1 && refund > 0) await tx.$executeRaw`UPDATE workspaces SET credits = credits + ${refund} WHERE id = ${workspaceId}`;
  });
  return charged;
}

/** Returns the whole reservation of a call that failed. */
export async function releaseCredits(workspaceId: string, reservation: Reservation, error: string): Promise<void> {
  await getDb().$transaction(async (tx) => {
    const settled = await tx.aiUsage.updateMany({
      where: { id: reservation.usageId, workspaceId, status: "reserved" },
      data: { status: "released", error: error.slice(0, 500), settledAt: new Date() },
    });
    if (settled.count === 1) await tx.$executeRaw`UPDATE workspaces SET credits = credits + ${reservation.reservedCredits} WHERE id = ${workspaceId}`;
  });
}

/** Returns the reservations of calls whose process died before settling them. */
export async function releaseStaleReservations(workspaceId: string, now = Date.now()): Promise<number> {
  const stale = await getDb().aiUsage.findMany({
    where: { workspaceId, status: "reserved", createdAt: { lt: new Date(now - STALE_RESERVATION_MS) } },
    select: { id: true, reservedCredits: true },
  });
  for (const row of stale) await releaseCredits(workspaceId, { usageId: row.id, reservedCredits: row.reservedCredits }, "abandoned: the call never settled");
  return stale.length;
}

export async function creditBalance(workspaceId: string): Promise<number> {
  const row = await getDb().workspace.findUnique({ where: { id: workspaceId }, select: { credits: true } });
  return row?.credits ?? 0;
}
