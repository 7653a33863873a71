import type { Platform } from "@/lib/generated/prisma/enums";
import type { AdsApi } from "./ads-types";
import { PlatformError, type AdAccountRef, type PlatformAdapter, type PushRequest, type PushResult } from "./types";

/**
 * The real platform APIs. Connecting a live ad account (OAuth, tokens) is not built yet,
 * so every call fails terminally with `not_connected`, naming what is missing.
 */
export class LivePlatformAdapter implements PlatformAdapter {
  readonly mode = "live" as const;

  constructor(readonly platform: Platform) {}

  private notConnected(account: AdAccountRef): PlatformError {
    return new PlatformError(
      "not_connected",
      `No live ${this.platform} ad account is connected for this workspace (account ${account.externalAccountId}); ` +
        "connect one, or run with PLATFORMS_MODE=sandbox",
      { retryable: false },
    );
  }

  async pushMedia(request: PushRequest): Promise<PushResult> {
    throw this.notConnected(request.account);
  }

  private refuse = async (account: AdAccountRef): Promise<never> => {
    throw this.notConnected(account);
  };

  getAccount: AdsApi["getAccount"] = (a) => this.refuse(a);
  createCampaign: AdsApi["createCampaign"] = (a) => this.refuse(a);
  updateCampaign: AdsApi["updateCampaign"] = (a) => this.refuse(a);
  createAdSet: AdsApi["createAdSet"] = (a) => this.refuse(a);
  updateAdSet: AdsApi["updateAdSet"] = (a) => this.refuse(a);
  createAd: AdsApi["createAd"] = (a) => this.refuse(a);
  updateAd: AdsApi["updateAd"] = (a) => this.refuse(a);
  listAudiences: AdsApi["listAudiences"] = (a) => this.refuse(a);
  getDailyInsights: AdsApi["getDailyInsights"] = (a) => this.refuse(a);
  listComments: AdsApi["listComments"] = (a) => this.refuse(a);
  setCommentHidden: AdsApi["setCommentHidden"] = (a) => this.refuse(a);
  replyToComment: AdsApi["replyToComment"] = (a) => this.refuse(a);
  deleteComment: AdsApi["deleteComment"] = (a) => this.refuse(a);
  listLeadForms: AdsApi["listLeadForms"] = (a) => this.refuse(a);
  listLeadSubmissions: AdsApi["listLeadSubmissions"] = (a) => this.refuse(a);
}
