import { getDb } from "@/lib/db/client";
import type { AdsApi, PlatformAccountInfo } from "../../ads-types";
import { localDayHour } from "../../local-time";
import type { AdAccountRef, ChunkedMediaUploads, PlatformAdapter, PushRequest, PushResult } from "../../types";
import { withAccountToken } from "../adapter";
import { readPlatformAAccount } from "../platform-a";
import * as ads from "./ads";
import type { MetaAccount } from "./ads";
import * as engagement from "./engagement";
import { getDailyInsights, getHourlyInsights } from "./insights";
import { finishMetaSession, metaMediaStatus, pushMetaMedia, startMetaSession, transferMetaChunk, videoTitle } from "./media";
import { PLATFORM_A_RULES } from "./rules";
import { checkAdCreative, checkAdSetWrite } from "../rule-guard";

/**
 * platform_a for live accounts: the AdsApi contract and media pushes on Meta's Marketing API.
 * Every call opens the account's sealed token (a refused one moves the account to needs_reconnect)
 * and reads the Page the account publishes as (AdAccount.pageId).
 */
export class MetaPlatformAdapter implements PlatformAdapter {
  readonly platform = "platform_a" as const;
  readonly mode = "live" as const;

  private run<T>(account: AdAccountRef, call: (meta: MetaAccount) => Promise<T>): Promise<T> {
    return withAccountToken(account, async (token) => {
      const row = await getDb().adAccount.findUnique({ where: { id: account.id }, select: { pageId: true, currency: true } });
      // The currency Meta reported when the account was connected (an act_ id keeps its currency); read again if missing.
      const currency = row?.currency ?? (await readPlatformAAccount(account.externalAccountId, token)).currency;
      return call({ accountId: account.externalAccountId, token, pageId: row?.pageId ?? null, currency });
    });
  }

  getAccount = async (account: AdAccountRef): Promise<PlatformAccountInfo> => {
    const info = await withAccountToken(account, (token) => readPlatformAAccount(account.externalAccountId, token));
    const now = Date.now();
    return { ...info, now: new Date(now).toISOString(), today: localDayHour(now, info.timeZone).date };
  };

  pushMedia = (request: PushRequest): Promise<PushResult> =>
    this.run(request.account, async (m) => ({ externalId: await pushMetaMedia(m.accountId, m.token, request) }));

  /** Meta's resumable video upload, phase by phase: lib/media-push records the session and each acknowledged chunk. */
  readonly chunkedUploads: ChunkedMediaUploads = {
    startMediaUpload: (request) =>
      withAccountToken(request.account, async (token) => ({
        sessionId: await startMetaSession(request.account.externalAccountId, token, request.sizeBytes),
      })),
    uploadChunk: (chunk) =>
      withAccountToken(chunk.account, async (token) => ({
        nextOffset: await transferMetaChunk(chunk.account.externalAccountId, token, chunk.sessionId, chunk.offset, chunk.bytes),
      })),
    finishMediaUpload: (request) =>
      withAccountToken(request.account, async (token) => {
        const title = request.uploadId ? videoTitle(request.fileName, request.uploadId) : request.fileName.slice(0, 200);
        return { externalId: await finishMetaSession(request.account.externalAccountId, token, request.sessionId, title) };
      }),
    mediaStatus: (account, media) => withAccountToken(account, (token) => metaMediaStatus(token, media)),
  };

  createCampaign: AdsApi["createCampaign"] = (account, write) => this.run(account, (m) => ads.createCampaign(m, write));
  updateCampaign: AdsApi["updateCampaign"] = (account, id, patch) => this.run(account, (m) => ads.updateCampaign(m, id, patch));
  createAdSet: AdsApi["createAdSet"] = async (account, write) => {
    // Meta's minimums are in the account currency's minor units; the currency is named only in the message.
    checkAdSetWrite(PLATFORM_A_RULES, "platform_a", write, "in the account currency");
    return this.run(account, (m) => ads.createAdSet(m, write));
  };
  updateAdSet: AdsApi["updateAdSet"] = (account, id, patch) => this.run(account, (m) => ads.updateAdSet(m, id, patch));
  createAd: AdsApi["createAd"] = async (account, write) => {
    checkAdCreative(PLATFORM_A_RULES, "platform_a", write.creative);
    return this.run(account, (m) => ads.createAd(m, write));
  };
  updateAd: AdsApi["updateAd"] = (account, id, patch) => this.run(account, (m) => ads.updateAd(m, id, patch));
  listAudiences: AdsApi["listAudiences"] = (account) => this.run(account, (m) => ads.listAudiences(m));
  searchLocations: AdsApi["searchLocations"] = (account, query) => this.run(account, (m) => ads.searchLocations(m, query));
  getDailyInsights: AdsApi["getDailyInsights"] = (account, query) => this.run(account, (m) => getDailyInsights(m, query));
  getHourlyInsights: NonNullable<AdsApi["getHourlyInsights"]> = (account, query) => this.run(account, (m) => getHourlyInsights(m, query));
  listComments: AdsApi["listComments"] = (account, query) => this.run(account, (m) => engagement.listComments(m, query));
  setCommentHidden: AdsApi["setCommentHidden"] = (account, id, hidden) => this.run(account, (m) => engagement.setCommentHidden(m, id, hidden));
  replyToComment: AdsApi["replyToComment"] = (account, id, message) => this.run(account, (m) => engagement.replyToComment(m, id, message));
  deleteComment: AdsApi["deleteComment"] = (account, id) => this.run(account, (m) => engagement.deleteComment(m, id));
  listLeadForms: AdsApi["listLeadForms"] = (account) => this.run(account, (m) => engagement.listLeadForms(m));
  listLeadSubmissions: AdsApi["listLeadSubmissions"] = (account, query) => this.run(account, (m) => engagement.listLeadSubmissions(m, query));
}
