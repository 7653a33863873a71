import { getDb } from "@/lib/db/client";
import { localDayHour } from "../../local-time";
import type { AdsApi, PlatformAccountInfo } from "../../ads-types";
import { PlatformError, type AdAccountRef, type ChunkedMediaUploads, type PlatformAdapter, type PushRequest, type PushResult } from "../../types";
import { withAccountToken } from "../adapter";
import { readPlatformBAdvertiser } from "../platform-b";
import * as ads from "./ads";
import * as comments from "./comments";
import { CHUNKED_VIDEO_THRESHOLD_BYTES, finishTikTokSession, pushMediaToTikTok, startTikTokSession, tiktokMediaStatus, transferTikTokChunk } from "./media";
import { getDailyInsights, getHourlyInsights } from "./reporting";
import { PLATFORM_B_RULES } from "./rules";
import { checkAdCreative, checkAdSetWrite } from "../rule-guard";

/**
 * platform_b live: TikTok's API for Business behind the AdsApi contract. Each call opens the
 * account's sealed token; a token TikTok refuses (client.ts AUTH_CODES) moves the account to
 * `needs_reconnect` and answers not_connected, and adapterFor answers every later call at once.
 */
export class TikTokLiveAdapter implements PlatformAdapter {
  readonly platform = "platform_b" as const;
  readonly mode = "live" as const;

  private call<T>(account: AdAccountRef, fn: (token: string, a: ads.TikTokAccount) => Promise<T>): Promise<T> {
    return withAccountToken(account, async (accessToken) => {
      const row = await getDb().adAccount.findUnique({ where: { id: account.id }, select: { identityId: true, currency: true } });
      const a: ads.TikTokAccount = {
        advertiserId: account.externalAccountId,
        identityId: row?.identityId ?? null,
        currency: row?.currency ?? "USD",
        accountId: account.id,
      };
      return fn(accessToken, a);
    });
  }

  getAccount = async (account: AdAccountRef): Promise<PlatformAccountInfo> => {
    const info = await this.call(account, (token) => readPlatformBAdvertiser(account.externalAccountId, token));
    const now = Date.now();
    return { ...info, now: new Date(now).toISOString(), today: localDayHour(now, info.timeZone).date };
  };

  pushMedia = async (request: PushRequest): Promise<PushResult> => ({
    externalId: await this.call(request.account, (token, a) => pushMediaToTikTok(token, a.advertiserId, request)),
  });

  /** TikTok's chunk upload, phase by phase: lib/media-push records the session and each acknowledged chunk. */
  readonly chunkedUploads: ChunkedMediaUploads = {
    // /file/start/upload/ takes files of 20 MB and more: smaller videos go in one /file/video/ad/upload/.
    chunkedAboveBytes: CHUNKED_VIDEO_THRESHOLD_BYTES,
    startMediaUpload: (request) =>
      this.call(request.account, async (token, a) => ({ sessionId: await startTikTokSession(token, a.advertiserId, request.sizeBytes, request.fileName) })),
    uploadChunk: (chunk) =>
      this.call(chunk.account, async (token, a) => ({
        nextOffset: await transferTikTokChunk(token, a.advertiserId, chunk.sessionId, chunk.offset, chunk.bytes),
      })),
    finishMediaUpload: (request) =>
      this.call(request.account, async (token, a) => ({
        externalId: await finishTikTokSession(token, a.advertiserId, request.sessionId, {
          uploadId: request.uploadId ?? request.sessionId.split(":")[0]!,
          fileName: request.fileName,
        }),
      })),
    mediaStatus: (account, media) => this.call(account, (token, a) => tiktokMediaStatus(token, a.advertiserId, media)),
  };

  createCampaign: AdsApi["createCampaign"] = (account, write) => this.call(account, (t, a) => ads.createCampaign(t, a, write));
  updateCampaign: AdsApi["updateCampaign"] = (account, id, patch) => this.call(account, (t, a) => ads.updateCampaign(t, a, id, patch));
  createAdSet: AdsApi["createAdSet"] = (account, write) =>
    this.call(account, (t, a) => {
      checkAdSetWrite(PLATFORM_B_RULES, "platform_b", write, a.currency);
      return ads.createAdSet(t, a, write);
    });
  updateAdSet: AdsApi["updateAdSet"] = (account, id, patch) => this.call(account, (t, a) => ads.updateAdSet(t, a, id, patch));
  createAd: AdsApi["createAd"] = async (account, write) => {
    checkAdCreative(PLATFORM_B_RULES, "platform_b", write.creative);
    return this.call(account, (t, a) => ads.createAd(t, a, write));
  };
  updateAd: AdsApi["updateAd"] = (account, id, patch) => this.call(account, (t, a) => ads.updateAd(t, a, id, patch));
  listAudiences: AdsApi["listAudiences"] = (account) => this.call(account, (t, a) => ads.listAudiences(t, a));
  searchLocations: AdsApi["searchLocations"] = (account, query) => this.call(account, (t, a) => ads.searchLocations(t, a, query));
  getDailyInsights: AdsApi["getDailyInsights"] = (account, query) => this.call(account, (t, a) => getDailyInsights(t, a, query));
  getHourlyInsights: NonNullable<AdsApi["getHourlyInsights"]> = (account, query) => this.call(account, (t, a) => getHourlyInsights(t, a, query));
  listComments: AdsApi["listComments"] = (account, query) => this.call(account, (t, a) => comments.listComments(t, a, query));
  setCommentHidden: AdsApi["setCommentHidden"] = (account, id, hidden) => this.call(account, (t, a) => comments.setCommentHidden(t, a, id, hidden));
  replyToComment: AdsApi["replyToComment"] = (account, id, message) => this.call(account, (t, a) => comments.replyToComment(t, a, id, message));
  deleteComment: AdsApi["deleteComment"] = (account, id) => this.call(account, (t, a) => comments.deleteComment(t, a, id));
  /** Lead forms are platform A's (the spec): platform B has none to list. */
  listLeadForms: AdsApi["listLeadForms"] = async () => [];
  listLeadSubmissions: AdsApi["listLeadSubmissions"] = async () => {
    throw new PlatformError("invalid_input", "platform_b has no lead forms here: lead forms are platform_a only", { retryable: false });
  };
}
