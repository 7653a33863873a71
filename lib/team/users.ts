import { conflict } from "@/lib/errors";
import type { Prisma } from "@/lib/generated/prisma/client";
import { newId } from "@/lib/ids";
import { isUniqueViolation } from "@/lib/db/errors";

type Tx = Prisma.TransactionClient;

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** The user with this email, created when new. */
export async function ensureUser(tx: Tx, input: { email: string; name?: string; passwordHash?: string }) {
  const email = normalizeEmail(input.email);
  const existing = await tx.user.findUnique({ where: { email } });
  if (existing) return existing;
  return tx.user.create({
    data: { id: newId("usr"), email, name: input.name ?? email.split("@")[0]!, passwordHash: input.passwordHash ?? null },
  });
}

/**
 * A new user with this email, or `conflict` when one exists: sign-up's owner. Two sign-ups with one email at the same
 * moment both pass the form's early check; here the second finds the first's row (or, on PostgreSQL, hits the
 * email's unique index) instead of adding its workspace to the other person's account.
 */
export async function createNewUser(tx: Tx, input: { email: string; name?: string; passwordHash?: string; emailVerified?: boolean }) {
  const email = normalizeEmail(input.email);
  const taken = () => conflict("An account with this email already exists; sign in instead");
  if (await tx.user.findUnique({ where: { email }, select: { id: true } })) throw taken();
  try {
    return await tx.user.create({
      data: {
        id: newId("usr"),
        email,
        name: input.name ?? email.split("@")[0]!,
        passwordHash: input.passwordHash ?? null,
        emailVerifiedAt: input.emailVerified ? new Date() : null,
      },
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw taken();
    throw err;
  }
}
