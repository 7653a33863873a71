import type { Platform } from "@/lib/generated/prisma/enums";
import { accountNotConnected, refusingAdapter } from "./live/adapter";
import { MetaPlatformAdapter } from "./live/platform-a/adapter";
import { TikTokLiveAdapter } from "./live/platform-b/adapter";
import { SandboxPlatformAdapter } from "./sandbox";
import type { AdAccountRef, PlatformAdapter } from "./types";

export { analyzeSandboxTables as refreshPlatformPlannerStats } from "./sandbox";
export { ensureDefaultAccounts, getAdAccount, PLATFORMS, reconnectHint } from "./accounts";
export { readLiveAccount } from "./live/adapter";
export { listMetaPages, type MetaPage } from "./live/platform-a/pages";
export { authorizeUrl, exchangeAuthorization, oauthAppId } from "./live/oauth";
export { resealAllCredentials, sealAccountCredentials } from "./live/credentials";
export type { LiveAccountReadout } from "./live/wire";
export {
  PlatformError,
  platformWaitSeconds,
  type AccountCredentials,
  type AdAccountRef,
  type MediaProcessing,
  type PlatformAdapter,
  type PushRequest,
  type PushResult,
} from "./types";

/**
 * The adapter that serves this ad account, chosen per account: the sandbox for sandbox accounts,
 * the real API for live ones. An account that is not active (needs reconnecting, disconnected)
 * gets one that answers every call with not_connected and how to reconnect, without calling out.
 */
export function adapterFor(account: AdAccountRef): PlatformAdapter {
  if (account.status !== "active") return refusingAdapter(account.platform, account.mode, () => accountNotConnected(account));
  if (account.mode === "sandbox") return new SandboxPlatformAdapter(account.platform);
  return account.platform === "platform_a" ? new MetaPlatformAdapter() : new TikTokLiveAdapter();
}

/** The Upload columns (and spec fields) a platform's id lands in. */
export function platformIdColumns(platform: Platform, kind: "image" | "video", externalId: string) {
  if (platform === "platform_a") return kind === "image" ? { platformAImageHash: externalId } : { platformAVideoId: externalId };
  return kind === "image" ? { platformBImageId: externalId } : { platformBVideoId: externalId };
}
