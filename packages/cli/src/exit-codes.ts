import { AdloomError } from "@adloom/sdk";
import { UsageError } from "./args.js";

/** What scripts can rely on (docs/cli.md). */
export const EXIT = {
  ok: 0,
  /** The API refused or failed (any error code not listed below). */
  apiError: 1,
  /** Bad command line: unknown command or flag, missing argument. */
  usage: 2,
  /** No key, a bad key, no active plan, or the key may not do this (unauthorized, subscription_required, forbidden, two_factor_required). */
  auth: 3,
  /** `uploads push --wait`: at least one upload ended failed. */
  uploadFailed: 4,
  /** The server could not be reached. */
  network: 5,
} as const;

const AUTH_CODES = new Set(["unauthorized", "subscription_required", "forbidden", "two_factor_required"]);

/** The exit code and the one line to print for a failure. */
export function describeFailure(err: unknown): { code: number; line: string } {
  if (err instanceof UsageError) return { code: EXIT.usage, line: `error (usage): ${err.message}\nRun "adloom help" for the commands.` };
  if (err instanceof AdloomError) {
    const code = err.code === "network_error" ? EXIT.network : AUTH_CODES.has(err.code) ? EXIT.auth : EXIT.apiError;
    return { code, line: `error (${err.rawCode ?? err.code}): ${err.message}` };
  }
  return { code: EXIT.apiError, line: `error: ${(err as Error)?.message ?? String(err)}` };
}
