import type { Platform } from "@/lib/generated/prisma/enums";
import { PlatformError, type PlatformAdapter, type PushRequest, type PushResult } from "./types";

/**
 * The real platform APIs. Connecting a live ad account (OAuth, tokens) is not built yet,
 * so every push fails terminally with `not_connected`, naming what is missing.
 */
export class LivePlatformAdapter implements PlatformAdapter {
  readonly mode = "live" as const;

  constructor(readonly platform: Platform) {}

  async pushMedia(request: PushRequest): Promise<PushResult> {
    throw new PlatformError(
      "not_connected",
      `No live ${this.platform} ad account is connected for this workspace (account ${request.account.externalAccountId}); ` +
        "connect one, or run with PLATFORMS_MODE=sandbox",
      { retryable: false },
    );
  }
}
