import { setTimeout as sleep } from "node:timers/promises";
import type { Principal } from "@/lib/auth/principal";
import { AppError } from "@/lib/errors";
import type { Platform } from "@/lib/generated/prisma/enums";
import { adapterFor, getAdAccount, PlatformError, platformWaitSeconds, type AdAccountRef, type PlatformAdapter } from "@/lib/platforms";

/** The workspace's ad account on the platform and the adapter that serves it; `not_connected` when there is none. */
export async function platformFor(principal: Pick<Principal, "workspaceId">, platform: Platform): Promise<{ account: AdAccountRef; api: PlatformAdapter }> {
  const account = await getAdAccount(principal.workspaceId, platform);
  if (!account) throw new AppError("not_connected", `No ${platform} ad account is connected to this workspace; connect one first`);
  return { account, api: adapterFor(account) };
}

/** A platform's wait up to this long is slept inside the call; a longer one goes back to the caller (jobs sleep it durably). */
export const IN_CALL_WAIT_LIMIT_SECONDS = 2;

/**
 * Runs a platform call, waiting out short rate limits (`upstream_busy`) up to `attempts` times: for
 * work that must finish in one call (the bulk builder). Other refusals, and a wait the platform asks
 * that is longer than IN_CALL_WAIT_LIMIT_SECONDS, are thrown at once.
 */
export async function withBusyRetry<T>(call: () => Promise<T>, attempts = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (err) {
      if (!(err instanceof PlatformError) || err.code !== "upstream_busy" || attempt >= attempts) throw err;
      const retryAfter = platformWaitSeconds(err) ?? 1;
      if (retryAfter > IN_CALL_WAIT_LIMIT_SECONDS) throw err;
      await sleep(Math.min(2000, retryAfter * 1000 * (attempt === 1 ? 0.25 : 0.5 * attempt)));
    }
  }
}
