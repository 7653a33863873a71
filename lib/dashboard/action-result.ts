import { revalidatePath } from "next/cache";
import type { z } from "zod";
import type { Principal } from "@/lib/auth/principal";
import { asAppError, parseOrRefuse } from "@/lib/errors";
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

/**
 * A server action's arguments as `schema` reads them. An action is an endpoint anyone signed in can post to,
 * with any JSON: call this inside `runAsPrincipal`, so wrong types answer the form's message, not a 500.
 */
export function actionInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  return parseOrRefuse(schema, input, "input");
}
