import { Prisma } from "@/lib/generated/prisma/client";

/** A write refused by a unique index (Prisma's P2002): another request wrote the same key first. */
export function isUniqueViolation(err: unknown): boolean {
  return err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002";
}
