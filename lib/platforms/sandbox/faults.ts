import type { Platform } from "@/lib/generated/prisma/enums";
import { getConfig } from "@/lib/services";
import { PlatformError } from "../types";

/**
 * Name-steered faults of the sandbox's ads API (like the upload sandbox's file names): a
 * campaign, ad set or ad whose name starts with one of these prefixes (case-insensitive).
 */
export type AdsFault = "reject" | "busy" | "terms" | "slow" | null;

export function adsFaultOf(name: string): AdsFault {
  const n = name.toLowerCase();
  if (n.startsWith("sandbox-reject")) return "reject";
  if (n.startsWith("sandbox-busy")) return "busy";
  if (n.startsWith("sandbox-terms")) return "terms";
  if (n.startsWith("sandbox-slow")) return "slow";
  return null;
}

/** How many times a `sandbox-busy` write is rate-limited before it is accepted. */
export const BUSY_REFUSALS = 2;

const busyAttempts = new Map<string, number>();

/** Throws the fault the name asks for; `writeKey` identifies the write across its retries. */
export function applyNameFault(platform: Platform, kind: string, name: string, writeKey: string): void {
  const fault = adsFaultOf(name);
  if (fault === "reject") {
    throw new PlatformError("upstream_error", `${platform} rejected the ${kind} "${name}" (sandbox-reject: every request for it is refused)`, {
      retryable: true,
    });
  }
  if (fault === "terms") {
    throw new PlatformError(
      "invalid_input",
      `${platform} refused the ${kind} "${name}": the ad account has not accepted the platform's advertising terms of service; ` +
        `an admin of the ad account must accept them in the platform's business settings before anything can be created (sandbox-terms)`,
      { retryable: false },
    );
  }
  if (fault === "busy") {
    const seen = busyAttempts.get(writeKey) ?? 0;
    if (seen < BUSY_REFUSALS) {
      busyAttempts.set(writeKey, seen + 1);
      throw new PlatformError("upstream_busy", `${platform} is rate limiting writes for the ${kind} "${name}" (sandbox-busy); retry shortly`, {
        retryable: true,
        retryAfterSeconds: 1,
      });
    }
  }
}

/**
 * A comment whose text starts with `sandbox-reject` refuses every moderation action on it
 * (`upstream_error`), one starting with `sandbox-terms` refuses terminally (`invalid_input`): how
 * tests and operators see what a platform refusal does to the inbox.
 */
export function applyCommentFault(platform: Platform, message: string, action: string): void {
  const fault = adsFaultOf(message.trimStart());
  if (fault === "reject") {
    throw new PlatformError("upstream_error", `${platform} refused to ${action} the comment (sandbox-reject: every action on it is refused); try again later`, {
      retryable: true,
    });
  }
  if (fault === "terms") {
    throw new PlatformError(
      "invalid_input",
      `${platform} refused to ${action} the comment: the page's moderation permissions were revoked by the platform (sandbox-terms)`,
      {
        retryable: false,
      },
    );
  }
}

/**
 * Burst limiting per ad account, as the real platforms do it: a token bucket that holds
 * SANDBOX_ADS_BURST_SECONDS' worth of calls (default 3) and refills SANDBOX_ADS_CALLS_PER_SECOND
 * (default 50). Past it, calls are refused with `upstream_busy`.
 */
export function burstLimit(): { capacity: number; perSecond: number } {
  const { sandboxAdsCallsPerSecond: perSecond, sandboxAdsBurstSeconds } = getConfig().platforms;
  return { capacity: perSecond * sandboxAdsBurstSeconds, perSecond };
}

const buckets = new Map<string, { tokens: number; at: number }>();

export function takeCallToken(platform: Platform, accountId: string, now = Date.now()): void {
  const limit = burstLimit();
  const bucket = buckets.get(accountId) ?? { tokens: limit.capacity, at: now };
  bucket.tokens = Math.min(limit.capacity, bucket.tokens + ((now - bucket.at) / 1000) * limit.perSecond);
  bucket.at = now;
  buckets.set(accountId, bucket);
  if (bucket.tokens < 1) {
    throw new PlatformError("upstream_busy", `${platform} is rate limiting this ad account (too many calls in a short time); retry in a second`, {
      retryable: true,
      retryAfterSeconds: 1,
    });
  }
  bucket.tokens -= 1;
}

/** A `sandbox-slow` write is made at once but answered only after SANDBOX_SLOW_PUSH_MS (a lost answer, if the caller dies meanwhile). */
export async function slowAnswer(name: string): Promise<void> {
  if (adsFaultOf(name) !== "slow") return;
  await new Promise((r) => setTimeout(r, getConfig().platforms.sandboxSlowPushMs));
}
