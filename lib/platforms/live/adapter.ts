import type { Platform } from "@/lib/generated/prisma/enums";
import { localDayHour } from "../sandbox-ads/clock";
import { markNeedsReconnect, reconnectHint } from "../accounts";
import type { AdsApi, PlatformAccountInfo } from "../ads-types";
import { PlatformError, type AdAccountRef, type PlatformAdapter } from "../types";
import { loadAccountCredentials } from "./credentials";
import { readPlatformAAccount } from "./platform-a";
import { readPlatformBAdvertiser } from "./platform-b";

/** Every AdsApi method, for adapters that answer each one alike (refusals). */
const ADS_API_METHODS = [
  "getAccount",
  "createCampaign",
  "updateCampaign",
  "createAdSet",
  "updateAdSet",
  "createAd",
  "updateAd",
  "listAudiences",
  "getDailyInsights",
  "listComments",
  "setCommentHidden",
  "replyToComment",
  "deleteComment",
  "listLeadForms",
  "listLeadSubmissions",
] as const satisfies readonly (keyof AdsApi)[];

/** The not_connected answer for an account that is not active: what happened and how to reconnect. */
export function accountNotConnected(account: AdAccountRef, reason?: string | null): PlatformError {
  const what =
    account.status === "disconnected"
      ? `Ad account ${account.externalAccountId} (${account.platform}) was disconnected.`
      : `Ad account ${account.externalAccountId} (${account.platform}) needs to be reconnected: ${reason ?? account.statusReason ?? "the platform refused its access token"}.`;
  return new PlatformError("not_connected", `${what} ${reconnectHint(account)}`, { retryable: false });
}

/** An adapter whose every call refuses with `error` before reaching any platform. */
export function refusingAdapter(platform: Platform, mode: "sandbox" | "live", error: () => PlatformError): PlatformAdapter {
  const refuse = async () => {
    throw error();
  };
  return Object.assign(
    { platform, mode, pushMedia: refuse, startMediaUpload: refuse, uploadChunk: refuse, finishMediaUpload: refuse, mediaStatus: refuse },
    Object.fromEntries(ADS_API_METHODS.map((m) => [m, refuse])),
  ) as unknown as PlatformAdapter;
}

/**
 * The real platform APIs for a live account: each call opens the account's sealed token. A token
 * the platform refuses moves the account to `needs_reconnect` (no retry: every later call answers
 * not_connected at once, see adapterFor). So far only the account read is built; issues 22/23 add
 * the rest of the contract per platform, and until then those calls say so.
 */
export class LivePlatformAdapter implements PlatformAdapter {
  readonly mode = "live" as const;

  constructor(readonly platform: Platform) {}

  private async withToken<T>(account: AdAccountRef, call: (token: string) => Promise<T>): Promise<T> {
    try {
      const { accessToken } = await loadAccountCredentials(account);
      return await call(accessToken);
    } catch (err) {
      if (err instanceof PlatformError && err.authRefused) {
        await markNeedsReconnect(account.id, err.message);
        throw accountNotConnected({ ...account, status: "needs_reconnect" }, err.message);
      }
      throw err;
    }
  }

  private notBuilt(what: string): PlatformError {
    return new PlatformError(
      "not_connected",
      `Live ${this.platform} accounts cannot ${what} yet: only reading the account is built; use the workspace's sandbox account for this`,
      {
        retryable: false,
      },
    );
  }

  private refuse = (what: string) => async (): Promise<never> => {
    throw this.notBuilt(what);
  };

  getAccount = async (account: AdAccountRef): Promise<PlatformAccountInfo> => {
    const read = this.platform === "platform_a" ? readPlatformAAccount : readPlatformBAdvertiser;
    const info = await this.withToken(account, (token) => read(account.externalAccountId, token));
    const now = Date.now();
    return { ...info, now: new Date(now).toISOString(), today: localDayHour(now, info.timeZone).date };
  };

  pushMedia: PlatformAdapter["pushMedia"] = this.refuse("receive media");
  startMediaUpload: PlatformAdapter["startMediaUpload"] = this.refuse("receive media");
  uploadChunk: PlatformAdapter["uploadChunk"] = this.refuse("receive media");
  finishMediaUpload: PlatformAdapter["finishMediaUpload"] = this.refuse("receive media");
  mediaStatus: PlatformAdapter["mediaStatus"] = this.refuse("report media processing");
  createCampaign: AdsApi["createCampaign"] = this.refuse("create campaigns");
  updateCampaign: AdsApi["updateCampaign"] = this.refuse("change campaigns");
  createAdSet: AdsApi["createAdSet"] = this.refuse("create ad sets");
  updateAdSet: AdsApi["updateAdSet"] = this.refuse("change ad sets");
  createAd: AdsApi["createAd"] = this.refuse("create ads");
  updateAd: AdsApi["updateAd"] = this.refuse("change ads");
  listAudiences: AdsApi["listAudiences"] = this.refuse("list audiences");
  getDailyInsights: AdsApi["getDailyInsights"] = this.refuse("report insights");
  listComments: AdsApi["listComments"] = this.refuse("list comments");
  setCommentHidden: AdsApi["setCommentHidden"] = this.refuse("hide comments");
  replyToComment: AdsApi["replyToComment"] = this.refuse("reply to comments");
  deleteComment: AdsApi["deleteComment"] = this.refuse("delete comments");
  listLeadForms: AdsApi["listLeadForms"] = this.refuse("list lead forms");
  listLeadSubmissions: AdsApi["listLeadSubmissions"] = this.refuse("list leads");
}

/** Reads a live account with a token not stored yet (connecting): the platform's answer, or its refusal. */
export function readLiveAccount(platform: Platform, externalAccountId: string, token: string) {
  return platform === "platform_a" ? readPlatformAAccount(externalAccountId, token) : readPlatformBAdvertiser(externalAccountId, token);
}
