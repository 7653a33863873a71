import type { Prisma } from "@/lib/generated/prisma/client";
import { newId } from "@/lib/ids";

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
