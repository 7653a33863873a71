import { revalidatePath } from "next/cache";
import type { Principal } from "@/lib/auth/principal";
import { asAppError } from "@/lib/errors";
import { requirePrincipal } from "./current";

export type ActionResult<T> = { ok: true; data: T } | { ok: false; error: string; code: string };

/**
 * Runs a dashboard server action as the signed-in principal: expected failures (an AppError, or a write
 * that lost a race to a removal: lib/errors.ts, asAppError) come back as a message for the form; anything
 * else is thrown (Next shows its error page).
 */
export async function runAsPrincipal<T>(fn: (principal: Principal) => Promise<T>, revalidate?: string): Promise<ActionResult<T>> {
  const principal = await requirePrincipal();
  try {
    const data = await fn(principal);
    if (revalidate) revalidatePath(revalidate);
    return { ok: true, data };
  } catch (error) {
    const known = asAppError(error);
    if (known) return { ok: false, error: known.message, code: known.code };
    throw error;
  }
}
