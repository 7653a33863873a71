import type { Platform } from "@/lib/generated/prisma/enums";
import { LivePlatformAdapter } from "./live";
import { SandboxPlatformAdapter } from "./sandbox";
import type { AdAccountRef, PlatformAdapter } from "./types";

export { getAdAccount } from "./accounts";
export { PlatformError, type AdAccountRef, type PlatformAdapter, type PushRequest, type PushResult } from "./types";

/** The adapter that serves this ad account: the sandbox for sandbox accounts, the real API otherwise. */
export function adapterFor(account: Pick<AdAccountRef, "platform" | "mode">): PlatformAdapter {
  return account.mode === "sandbox" ? new SandboxPlatformAdapter(account.platform) : new LivePlatformAdapter(account.platform);
}

/** The Upload columns (and spec fields) a platform's id lands in. */
export function platformIdColumns(platform: Platform, kind: "image" | "video", externalId: string) {
  if (platform === "platform_a") return kind === "image" ? { platformAImageHash: externalId } : { platformAVideoId: externalId };
  return kind === "image" ? { platformBImageId: externalId } : { platformBVideoId: externalId };
}
