import { createHash } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A wire-level stand-in for TikTok's API for Business v1.3 (the endpoints the platform_b adapter
 * uses), written from its reference: every answer is HTTP 200 with { code, message, request_id, data };
 * every call needs the `Access-Token` header (40105 when unknown or revoked) and an advertiser_id the
 * token was granted (40001); documented parameters are checked (40002 with the reason). Tests point
 * PLATFORM_B_API_URL at it and read `requests` to see what the adapter sent.
 */
export interface TikTokRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  /** JSON body, or the multipart fields (files as { name, size, md5 }). */
  body: any;
  /** When it arrived (ms since the epoch). */
  at: number;
}

interface Obj {
  [k: string]: any;
}

export interface FakeTikTok {
  url: string;
  /** The advertiser authorization page: straight back to redirect_uri with the first `oauth` grant's auth_code and the state. */
  authorizeUrl: string;
  requests: TikTokRequest[];
  grant(token: string, advertiserIds: string[]): void;
  revoke(token: string): void;
  /** The next `n` calls answer code 40100 (requests made too frequently). */
  throttle(n: number): void;
  /** The next call to `route` (e.g. "adgroup/update/") answers this code and message. */
  failNext(route: string, code: number, message: string): void;
  /** The next call to `route` is carried out but answered 50002 (system timeout), as when its answer is lost. */
  dropNextAnswer(route: string): void;
  campaigns: Map<string, Obj>;
  adgroups: Map<string, Obj>;
  ads: Map<string, Obj>;
  images: Map<string, Obj>;
  videos: Map<string, Obj>;
  comments: Map<string, Obj>;
  /** Delivery the report answers: per ad per day (YYYY-MM-DD), metrics as TikTok sends them (strings). */
  setDelivery(adId: string, day: string, metrics: Record<string, string>): void;
  /** Delivery of an ad in one hour of a day (the advertiser's time zone), what the report answers with stat_time_hour. */
  setHourlyDelivery(adId: string, day: string, hour: number, metrics: Record<string, string>): void;
  /** A person comments on an ad (create_time: Unix seconds). */
  addComment(adId: string, content: string, options?: { userName?: string; createTime?: number }): Obj;
  /** The comment's author deletes it on TikTok (its replies go with it): no longer listed, and every comment call on it answers 40007. */
  authorDeletes(commentId: string): void;
  /** How many polls of /file/video/ad/info/ answer a new video as not yet displayable. */
  videoProcessingPolls: number;
  /** Chunk size /file/start/upload/ and /file/transfer/upload/ ask for. */
  chunkSize: number;
  /** The smallest file /file/start/upload/ takes (TikTok: 20 MB); tests lower it with the adapter's threshold. */
  minChunkUploadBytes: number;
  /** Chunk upload sessions by upload_id: transfers accepted, transfers refused (a range it already has), finishes. */
  uploadSessions: Map<string, { size: number; offset: number; transfers: number; refused: number; finishes: number; fileId: string | null }>;
  /** The next call to `route` matching `params` waits until released (a request in flight while the caller dies); then it is carried out. */
  holdNext(route: string, params?: (body: Obj) => boolean): { arrived: Promise<void>; release(): void };
  /** After the next call to `route` matching `params` is answered, `then` runs: a change on TikTok between two requests (a comment deleted between two pages of a list). */
  afterNext(route: string, params: (body: Obj) => boolean, then: () => void): void;
  close(): Promise<void>;
}

const PATH = "/open_api/v1.3/";
let seq = 7_100_000_000_000_000_000n;
const nextId = () => String(++seq);
const md5 = (b: Buffer) => createHash("md5").update(b).digest("hex");

class Refusal extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}
const param = (message: string) => new Refusal(40002, message);
/**
 * A comment that is not there (deleted by its author or by an earlier call, or never made). TikTok's references for
 * /comment/status/update/, /comment/post/ and /comment/delete/ (tiktok/tiktok-business-api-sdk yml_files/comment_*.yml,
 * "Appendix - Return Codes" https://ads.tiktok.com/marketing_api/docs?id=1737172488964097) name no code of their own
 * for it. Its return-code table (the SDK's python_sdk/business_api_client/tiktok_business/tiktok_code.py) has 40007
 * NOT_EXIST, the closest documented one: TikTok Business Messaging's error list (as help.sleekflow.io's TikTok Business
 * Messaging troubleshooting page reproduces it) gives 40007 for an object id that does not exist, deleted ones included.
 * The message is ours (docs/decisions.md).
 */
const noSuchComment = (id: string) => new Refusal(40007, `Comment ${id} does not exist or has been deleted.`);

function parseList(value: unknown, name: string): string[] {
  if (value === undefined || value === null || value === "") return [];
  let v = value;
  if (typeof v === "string") {
    try {
      v = JSON.parse(v);
    } catch {
      throw param(`${name}: Not a valid list.`);
    }
  }
  if (!Array.isArray(v)) throw param(`${name}: Not a valid list.`);
  return v.map(String);
}
/** What the image endpoints answer for an image (its documented fields). */
const imageOut = (i: Obj) => ({
  image_id: i.image_id,
  material_id: i.material_id,
  file_name: i.file_name,
  signature: i.signature,
  size: i.size,
  width: i.width,
  height: i.height,
  format: i.format,
  displayable: i.displayable,
});
/** What /file/finish/upload/ answers for the file it made. */
const fileOut = (f: Obj) => ({ file_id: f.file_id, file_name: f.file_name, signature: f.signature, size: f.size, create_time: "2026-01-01 00:00:00" });
function requireFields(body: Obj, fields: string[]) {
  for (const f of fields) if (body[f] === undefined || body[f] === null || body[f] === "") throw param(`${f}: Missing data for required field.`);
}
const TIME = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/;

/** Places /tool/targeting/search/ knows (geo ids as location_ids take them); Kyiv is offline (status DISABLED). */
export const TIKTOK_GEO_TAGS = [
  { name: "United States", geo_id: "6252001", geo_type: "COUNTRY", region_code: "US", parent_id: "0" },
  { name: "Germany", geo_id: "2921044", geo_type: "COUNTRY", region_code: "DE", parent_id: "0" },
  { name: "California", geo_id: "5332921", geo_type: "PROVINCE", region_code: "US", parent_id: "6252001" },
  { name: "Bavaria", geo_id: "2951839", geo_type: "PROVINCE", region_code: "DE", parent_id: "2921044" },
  { name: "Munich", geo_id: "2867714", geo_type: "CITY", region_code: "DE", parent_id: "2951839" },
  { name: "Austin", geo_id: "4671654", geo_type: "CITY", region_code: "US", parent_id: "4736286" },
  { name: "Kyiv", geo_id: "703448", geo_type: "CITY", region_code: "UA", parent_id: "0", disabled: true },
] as const;
const OBJECTIVE_TYPES = ["REACH", "TRAFFIC", "VIDEO_VIEWS", "LEAD_GENERATION", "ENGAGEMENT", "APP_PROMOTION", "WEB_CONVERSIONS", "PRODUCT_SALES"];
const GEO_TYPES = ["ZIP_CODE", "COUNTRY", "PROVINCE", "CITY", "DISTRICT", "DMA"];
const SEARCH_TYPES = ["FUZZY_SEARCH", "BATCH_REGION_SEARCH", "BATCH_ZIPCODE_SEARCH"];

export interface TikTokOAuthGrant {
  appId: string;
  secret: string;
  code: string;
  token: string;
  advertiserIds: string[];
}

export async function fakeTikTok(options: {
  advertisers: Record<string, { name: string; currency: string; timezone: string; display_timezone?: string; status: string }>;
  /** Advertiser authorization codes the app may exchange (`oauth2/access_token/`), and what each is worth. */
  oauth?: TikTokOAuthGrant | TikTokOAuthGrant[];
  /** Each advertiser's custom identities (/identity/get/). */
  identities?: Record<string, string[]>;
}): Promise<FakeTikTok> {
  const tokens = new Map<string, Set<string>>();
  const requests: TikTokRequest[] = [];
  const campaigns = new Map<string, Obj>();
  const adgroups = new Map<string, Obj>();
  const ads = new Map<string, Obj>();
  const images = new Map<string, Obj>();
  const videos = new Map<string, Obj>();
  const comments = new Map<string, Obj>();
  const files = new Map<string, Obj>();
  const sessions = new Map<
    string,
    {
      advertiserId: string;
      size: number;
      received: Buffer[];
      offset: number;
      name: string;
      transfers: number;
      refused: number;
      finishes: number;
      fileId: string | null;
    }
  >();
  const holds: { route: string; params?: (body: Obj) => boolean; arrive(): void; released: Promise<void> }[] = [];
  const afters: { route: string; params: (body: Obj) => boolean; then(): void }[] = [];
  const requestIds = new Map<string, string>();
  const delivery = new Map<string, Record<string, string>>();
  const hourlyDelivery = new Map<string, Record<string, string>>(); // "ad|YYYY-MM-DD HH" -> metrics
  let throttled = 0;
  const failures = new Map<string, { code: number; message: string }>();
  const dropped = new Set<string>();
  let n = 0;

  const fake: FakeTikTok = {
    url: "",
    authorizeUrl: "",
    requests,
    grant: (token, ids) => tokens.set(token, new Set(ids)),
    revoke: (token) => tokens.delete(token),
    throttle: (count) => {
      throttled = count;
    },
    failNext: (route, code, message) => failures.set(route, { code, message }),
    dropNextAnswer: (route) => {
      dropped.add(route);
    },
    campaigns,
    adgroups,
    ads,
    images,
    videos,
    comments,
    setDelivery: (adId, day, metrics) => delivery.set(`${adId}|${day}`, metrics),
    setHourlyDelivery: (adId, day, hour, metrics) => hourlyDelivery.set(`${adId}|${day} ${String(hour).padStart(2, "0")}`, metrics),
    addComment: (adId, content, o = {}) => {
      const ad = ads.get(adId);
      if (!ad) throw new Error(`no ad ${adId}`);
      const c = {
        comment_id: nextId(),
        ad_id: adId,
        adgroup_id: ad.adgroup_id,
        campaign_id: adgroups.get(ad.adgroup_id)?.campaign_id,
        tiktok_item_id: ad.tiktok_item_id,
        content,
        comment_type: "COMMENT",
        comment_status: "PUBLIC",
        create_time: String(o.createTime ?? Math.floor(Date.now() / 1000)),
        user_name: o.userName ?? "viewer",
        user_id: nextId(),
        identity_id: ad.identity_id,
        identity_type: "CUSTOMIZED_USER",
        likes: 0,
        replies: 0,
      };
      comments.set(c.comment_id, c);
      return c;
    },
    authorDeletes: (commentId) => {
      for (const [id, other] of comments) if (id === commentId || other.reply_to_comment_id === commentId) comments.delete(id);
    },
    videoProcessingPolls: 1,
    chunkSize: 64 * 1024,
    minChunkUploadBytes: 20 * 1024 * 1024,
    uploadSessions: sessions,
    holdNext: (route, params) => {
      let arrive!: () => void;
      let release!: () => void;
      const arrived = new Promise<void>((r) => (arrive = r));
      const released = new Promise<void>((r) => (release = r));
      holds.push({ route, params, arrive, released });
      return { arrived, release };
    },
    afterNext: (route, params, then) => {
      afters.push({ route, params, then });
    },
    close: async () => undefined,
  };

  function advertiserOf(token: string, body: Obj): string {
    const advertiserId = String(body.advertiser_id ?? "");
    if (!advertiserId) throw param("advertiser_id: Missing data for required field.");
    if (!tokens.get(token)!.has(advertiserId)) throw new Refusal(40001, "No permission to operate advertiser.");
    return advertiserId;
  }

  function page(list: Obj[], body: Obj) {
    const p = Math.max(1, Number(body.page ?? 1));
    const size = Math.min(1000, Math.max(1, Number(body.page_size ?? 10)));
    return {
      list: list.slice((p - 1) * size, p * size),
      page_info: { page: p, page_size: size, total_number: list.length, total_page: Math.max(1, Math.ceil(list.length / size)) },
    };
  }
  function filtering(body: Obj): Obj {
    if (!body.filtering) return {};
    try {
      return typeof body.filtering === "string" ? JSON.parse(body.filtering) : body.filtering;
    } catch {
      throw param("filtering: Not a valid JSON.");
    }
  }
  function owned(map: Map<string, Obj>, id: string, advertiserId: string, what: string): Obj {
    const o = map.get(String(id));
    if (!o || o.advertiser_id !== advertiserId) throw new Refusal(40002, `${what} ${id} does not exist.`);
    return o;
  }
  function statusUpdate(map: Map<string, Obj>, ids: string[], op: string, advertiserId: string, what: string) {
    if (!["ENABLE", "DISABLE", "DELETE"].includes(op)) throw param("operation_status: Must be one of: ENABLE, DISABLE, DELETE.");
    for (const id of ids) {
      const o = owned(map, id, advertiserId, what);
      if (o.secondary_status?.includes("DELETE")) throw new Refusal(40002, `${what} ${id} has been deleted.`);
      if (op === "DELETE") o.secondary_status = `${what.toUpperCase()}_STATUS_DELETE`;
      else o.operation_status = op;
    }
  }

  function handle(token: string, method: string, route: string, body: Obj): unknown {
    switch (`${method} ${route}`) {
      case "GET advertiser/info/": {
        const ids = parseList(body.advertiser_ids, "advertiser_ids");
        if (ids.some((id) => !tokens.get(token)!.has(id))) throw new Refusal(40001, "No permission to operate advertiser.");
        return { list: ids.filter((id) => options.advertisers[id]).map((id) => ({ advertiser_id: id, ...options.advertisers[id] })) };
      }
      case "POST file/image/ad/upload/": {
        const advertiserId = advertiserOf(token, body);
        if ((body.upload_type ?? "UPLOAD_BY_FILE") !== "UPLOAD_BY_FILE") throw param("upload_type: only UPLOAD_BY_FILE here.");
        const file = body.image_file;
        if (!file) throw param("image_file: Missing data for required field.");
        if (!body.image_signature) throw param("image_signature: Missing data for required field.");
        if (body.image_signature !== file.md5) throw new Refusal(40900, "The image_signature does not match the file's MD5.");
        // File names are unique per advertiser (images and videos each): 40911 DUPLICATED_MATERIAL_NAME.
        const fileName = String(body.file_name || file.name).slice(0, 100);
        if ([...images.values()].some((i) => i.advertiser_id === advertiserId && i.file_name === fileName))
          throw new Refusal(40911, "Duplicated material name.");
        const image = {
          image_id: `ad-site-i18n-sg/${nextId()}`,
          material_id: nextId(),
          advertiser_id: advertiserId,
          signature: file.md5,
          size: file.size,
          file_name: fileName,
          width: 400,
          height: 400,
          format: "png",
          displayable: true,
        };
        images.set(image.image_id, image);
        return imageOut(image);
      }
      case "GET file/image/ad/search/": {
        const advertiserId = advertiserOf(token, body);
        const f = filtering(body);
        const byImage = f.image_ids ? parseList(f.image_ids, "filtering.image_ids") : null;
        const byMaterial = f.material_ids ? parseList(f.material_ids, "filtering.material_ids") : null;
        const rows = [...images.values()].filter(
          (i) => i.advertiser_id === advertiserId && (!byImage || byImage.includes(i.image_id)) && (!byMaterial || byMaterial.includes(i.material_id)),
        );
        return page(rows.map(imageOut), body);
      }
      case "GET file/name/check/": {
        const advertiserId = advertiserOf(token, body);
        requireFields(body, ["file_name"]);
        const type = body.file_type ?? "VIDEO";
        if (!["VIDEO", "IMAGE"].includes(type)) throw param("file_type: Must be one of: VIDEO, IMAGE.");
        const library = type === "IMAGE" ? images : videos;
        const taken = [...library.values()].find((m) => m.advertiser_id === advertiserId && m.file_name === body.file_name);
        return taken
          ? { file_name: body.file_name, duplicate: true, duplicate_template_id: taken.material_id }
          : { file_name: body.file_name, duplicate: false };
      }
      case "POST file/video/ad/upload/": {
        const advertiserId = advertiserOf(token, body);
        const type = body.upload_type ?? "UPLOAD_BY_FILE";
        let signature: string;
        let size: number;
        if (type === "UPLOAD_BY_FILE") {
          if (!body.video_file) throw param("video_file: Missing data for required field.");
          if (body.video_signature !== body.video_file.md5) throw new Refusal(40900, "The video_signature does not match the file's MD5.");
          signature = body.video_file.md5;
          size = body.video_file.size;
        } else if (type === "UPLOAD_BY_FILE_ID") {
          const f = files.get(String(body.file_id));
          if (!f || f.advertiser_id !== advertiserId) throw new Refusal(40002, "file_id is invalid or has expired.");
          signature = f.signature;
          size = f.size;
        } else throw param("upload_type: Must be one of: UPLOAD_BY_FILE, UPLOAD_BY_FILE_ID.");
        if ([...videos.values()].some((v) => v.advertiser_id === advertiserId && v.file_name === body.file_name)) {
          throw new Refusal(40911, "Duplicated material name.");
        }
        const video = {
          video_id: `v10033g50000${nextId()}`,
          material_id: nextId(),
          advertiser_id: advertiserId,
          file_name: body.file_name,
          signature,
          size,
          polls: 0,
        };
        videos.set(video.video_id, video);
        return [{ video_id: video.video_id, material_id: video.material_id, file_name: video.file_name, signature, size }];
      }
      case "GET file/video/ad/search/": {
        const advertiserId = advertiserOf(token, body);
        const name = filtering(body).video_name as string | undefined;
        const rows = [...videos.values()]
          .filter((v) => v.advertiser_id === advertiserId && (!name || String(v.file_name).includes(name)))
          .map((v) => ({ video_id: v.video_id, file_name: v.file_name, signature: v.signature, size: v.size }));
        return page(rows, body);
      }
      case "GET file/video/ad/info/": {
        const advertiserId = advertiserOf(token, body);
        const ids = parseList(body.video_ids, "video_ids");
        return {
          list: ids
            .map((id) => videos.get(id))
            .filter((v) => v && v.advertiser_id === advertiserId)
            .map((v) => ({
              video_id: v!.video_id,
              file_name: v!.file_name,
              signature: v!.signature,
              size: v!.size,
              displayable: ++v!.polls > fake.videoProcessingPolls,
            })),
        };
      }
      case "POST file/start/upload/": {
        const advertiserId = advertiserOf(token, body);
        requireFields(body, ["size", "content_type"]);
        if (!["image", "video", "music", "playable"].includes(body.content_type)) throw param("content_type: Must be one of: image, music, video, playable.");
        if (!(Number(body.size) >= fake.minChunkUploadBytes))
          throw param(`size: The file must be at least ${fake.minChunkUploadBytes} bytes for the chunk upload.`);
        const uploadId = nextId();
        sessions.set(uploadId, {
          advertiserId,
          size: Number(body.size),
          received: [],
          offset: 0,
          name: String(body.name ?? ""),
          transfers: 0,
          refused: 0,
          finishes: 0,
          fileId: null,
        });
        return { upload_id: uploadId, file_name: body.name, start_offset: 0, end_offset: Math.min(fake.chunkSize, Number(body.size)) };
      }
      case "POST file/transfer/upload/": {
        const advertiserId = advertiserOf(token, body);
        const s = sessions.get(String(body.upload_id));
        if (!s || s.advertiserId !== advertiserId) throw new Refusal(40002, "upload_id is invalid.");
        if (s.fileId) throw new Refusal(40002, "The upload is finished.");
        // Chunks go in order, each exactly the range the last answer named; a range it already has (a chunk sent
        // again) is refused with the offset it expects, nothing stored twice (our reading, see docs/decisions.md).
        if (Number(body.start_offset) !== s.offset) {
          s.refused++;
          throw new Refusal(40002, `start_offset must be ${s.offset}.`);
        }
        const chunk = body.file;
        if (!chunk) throw param("file: Missing data for required field.");
        if (body.signature !== chunk.md5) throw new Refusal(40900, "The signature does not match the chunk's MD5.");
        const expected = Math.min(s.offset + fake.chunkSize, s.size) - s.offset;
        if (chunk.size !== expected) throw new Refusal(40002, `file: the chunk at ${s.offset} must be ${expected} bytes.`);
        s.transfers++;
        s.received.push(chunk.bytes);
        s.offset += chunk.size;
        return { start_offset: s.offset, end_offset: Math.min(s.offset + fake.chunkSize, s.size) };
      }
      case "POST file/finish/upload/": {
        const advertiserId = advertiserOf(token, body);
        const s = sessions.get(String(body.upload_id));
        if (!s || s.advertiserId !== advertiserId) throw new Refusal(40002, "upload_id is invalid.");
        if (s.offset !== s.size) throw new Refusal(40002, `The upload is incomplete: ${s.offset} of ${s.size} bytes.`);
        s.finishes++;
        // A finish sent again (its answer lost) answers the same file (our reading, see docs/decisions.md).
        if (s.fileId) {
          const done = files.get(s.fileId)!;
          return fileOut(done);
        }
        const bytes = Buffer.concat(s.received);
        const file = { file_id: nextId(), advertiser_id: advertiserId, signature: md5(bytes), size: bytes.length, file_name: s.name };
        files.set(file.file_id, file);
        s.fileId = file.file_id;
        return fileOut(file);
      }
      case "POST campaign/create/": {
        const advertiserId = advertiserOf(token, body);
        requireFields(body, ["campaign_name", "objective_type"]);
        if (!["TRAFFIC", "WEB_CONVERSIONS", "LEAD_GENERATION", "REACH", "ENGAGEMENT", "APP_PROMOTION", "VIDEO_VIEWS"].includes(body.objective_type)) {
          throw param("objective_type: Invalid enum value.");
        }
        if (body.budget_mode && !["BUDGET_MODE_INFINITE", "BUDGET_MODE_DAY", "BUDGET_MODE_TOTAL"].includes(body.budget_mode))
          throw param("budget_mode: Invalid enum value.");
        const key = body.request_id ? `c|${advertiserId}|${body.request_id}` : null;
        if (key && requestIds.has(key)) throw new Refusal(40050, "Duplicated request.");
        const c = {
          campaign_id: nextId(),
          advertiser_id: advertiserId,
          campaign_name: body.campaign_name,
          objective_type: body.objective_type,
          budget_mode: body.budget_mode ?? "BUDGET_MODE_INFINITE",
          operation_status: body.operation_status ?? "ENABLE",
          secondary_status: "CAMPAIGN_STATUS_ENABLE",
          create_time: "2026-01-01 00:00:00",
        };
        campaigns.set(c.campaign_id, c);
        if (key) requestIds.set(key, c.campaign_id);
        return { campaign_id: c.campaign_id };
      }
      case "POST campaign/update/": {
        const advertiserId = advertiserOf(token, body);
        const c = owned(campaigns, body.campaign_id, advertiserId, "Campaign");
        if (body.campaign_name) c.campaign_name = body.campaign_name;
        return { campaign_id: c.campaign_id };
      }
      case "POST campaign/status/update/": {
        const advertiserId = advertiserOf(token, body);
        const ids = parseList(body.campaign_ids, "campaign_ids");
        statusUpdate(campaigns, ids, body.operation_status, advertiserId, "Campaign");
        return { campaign_ids: ids, status: body.operation_status };
      }
      case "GET campaign/get/":
      case "GET adgroup/get/":
      case "GET ad/get/": {
        const advertiserId = advertiserOf(token, body);
        const f = filtering(body);
        const [map, idsKey] = route === "campaign/get/" ? [campaigns, "campaign_ids"] : route === "adgroup/get/" ? [adgroups, "adgroup_ids"] : [ads, "ad_ids"];
        let rows = [...map.values()].filter((o) => o.advertiser_id === advertiserId);
        if (f[idsKey]) rows = rows.filter((o) => f[idsKey].map(String).includes(o[idsKey.slice(0, -1)]));
        // primary_status defaults to STATUS_NOT_DELETE: deleted objects only with STATUS_ALL, even by id.
        const primary = f.primary_status ?? "STATUS_NOT_DELETE";
        if (!["STATUS_ALL", "STATUS_NOT_DELETE"].includes(primary)) throw param("primary_status: Invalid enum value.");
        if (primary === "STATUS_NOT_DELETE") rows = rows.filter((o) => !o.secondary_status?.includes("DELETE"));
        // Names match loosely (a part of the name).
        const nameKey = route === "campaign/get/" ? "campaign_name" : route === "adgroup/get/" ? "adgroup_name" : null;
        if (nameKey && f[nameKey]) rows = rows.filter((o) => String(o[nameKey]).includes(String(f[nameKey])));
        if (f.adgroup_ids && idsKey !== "adgroup_ids") rows = rows.filter((o) => f.adgroup_ids.map(String).includes(o.adgroup_id));
        if (f.campaign_ids && idsKey !== "campaign_ids") rows = rows.filter((o) => f.campaign_ids.map(String).includes(o.campaign_id));
        return page(rows, body);
      }
      case "POST adgroup/create/": {
        const advertiserId = advertiserOf(token, body);
        requireFields(body, [
          "campaign_id",
          "adgroup_name",
          "budget_mode",
          "budget",
          "schedule_type",
          "schedule_start_time",
          "optimization_goal",
          "billing_event",
          "pacing",
        ]);
        const campaign = owned(campaigns, body.campaign_id, advertiserId, "Campaign");
        if (body.placement_type === "PLACEMENT_TYPE_NORMAL" && !(body.placements ?? []).length)
          throw param("placements: Required when placement_type is PLACEMENT_TYPE_NORMAL.");
        const locations = parseList(body.location_ids, "location_ids");
        if (!locations.length) throw param("location_ids: Missing data for required field.");
        if (!["BUDGET_MODE_DAY", "BUDGET_MODE_TOTAL"].includes(body.budget_mode)) throw param("budget_mode: Invalid enum value.");
        if (typeof body.budget !== "number" || body.budget < 20) throw new Refusal(40002, "The ad group budget must be at least 20.");
        if (!TIME.test(body.schedule_start_time)) throw param("schedule_start_time: Format must be YYYY-MM-DD HH:MM:SS.");
        if (body.schedule_type === "SCHEDULE_START_END" && !TIME.test(body.schedule_end_time ?? ""))
          throw param("schedule_end_time: Required for SCHEDULE_START_END.");
        if (body.budget_mode === "BUDGET_MODE_TOTAL" && body.schedule_type !== "SCHEDULE_START_END") throw param("A lifetime budget needs SCHEDULE_START_END.");
        const key = body.request_id ? `g|${advertiserId}|${body.request_id}` : null;
        if (key && requestIds.has(key)) throw new Refusal(40050, "Duplicated request.");
        const g: Obj = {
          ...body,
          adgroup_id: nextId(),
          advertiser_id: advertiserId,
          campaign_id: campaign.campaign_id,
          location_ids: locations,
          operation_status: body.operation_status ?? "ENABLE",
          secondary_status: "ADGROUP_STATUS_DELIVERY_OK",
        };
        delete g.request_id;
        adgroups.set(g.adgroup_id, g);
        if (key) requestIds.set(key, g.adgroup_id);
        return { adgroup_id: g.adgroup_id };
      }
      case "POST adgroup/update/": {
        const advertiserId = advertiserOf(token, body);
        const g = owned(adgroups, body.adgroup_id, advertiserId, "Adgroup");
        if (body.adgroup_name) g.adgroup_name = body.adgroup_name;
        if (body.schedule_end_time) {
          if (!TIME.test(body.schedule_end_time)) throw param("schedule_end_time: Format must be YYYY-MM-DD HH:MM:SS.");
          g.schedule_end_time = body.schedule_end_time;
        }
        return { adgroup_id: g.adgroup_id };
      }
      case "POST adgroup/budget/update/": {
        const advertiserId = advertiserOf(token, body);
        if (!Array.isArray(body.budget) || !body.budget.length) throw param("budget: Missing data for required field.");
        for (const b of body.budget) {
          const g = owned(adgroups, b.adgroup_id, advertiserId, "Adgroup");
          if (typeof b.budget !== "number" || b.budget < 20) throw new Refusal(40002, "The ad group budget must be at least 20.");
          g.budget = b.budget;
        }
        return {};
      }
      case "POST adgroup/status/update/": {
        const advertiserId = advertiserOf(token, body);
        const ids = parseList(body.adgroup_ids, "adgroup_ids");
        statusUpdate(adgroups, ids, body.operation_status, advertiserId, "Adgroup");
        return { adgroup_ids: ids, status: body.operation_status };
      }
      case "POST ad/create/":
      case "POST ad/update/": {
        const advertiserId = advertiserOf(token, body);
        const g = owned(adgroups, body.adgroup_id, advertiserId, "Adgroup");
        if (!Array.isArray(body.creatives) || !body.creatives.length) throw param("creatives: Missing data for required field.");
        const made: string[] = [];
        for (const c of body.creatives) {
          requireFields(c, ["ad_name", "identity_type", "identity_id", "ad_format", "ad_text", "landing_page_url"]);
          if (c.ad_format === "SINGLE_IMAGE") {
            if (!Array.isArray(c.image_ids) || !c.image_ids.every((i: string) => images.get(i)?.advertiser_id === advertiserId))
              throw new Refusal(40002, "image_ids: the image does not exist in this advertiser's library.");
          } else if (c.ad_format === "SINGLE_VIDEO") {
            if (videos.get(c.video_id)?.advertiser_id !== advertiserId)
              throw new Refusal(40002, "video_id: the video does not exist in this advertiser's library.");
          } else throw param("ad_format: Invalid enum value.");
          if ([...c.ad_text].length > 100) throw new Refusal(40002, "ad_text: Length must be between 1 and 100.");
          const ad =
            route === "ad/update/" ? owned(ads, c.ad_id, advertiserId, "Ad") : { ad_id: nextId(), advertiser_id: advertiserId, tiktok_item_id: nextId() };
          Object.assign(ad, c, {
            adgroup_id: g.adgroup_id,
            campaign_id: g.campaign_id,
            // A creative's operation_status (default ENABLE) applies on create only; later changes go through /ad/status/update/.
            operation_status: ad.operation_status ?? c.operation_status ?? "ENABLE",
            secondary_status: ad.secondary_status ?? "AD_STATUS_DELIVERY_OK",
          });
          ads.set(ad.ad_id, ad);
          made.push(ad.ad_id);
        }
        return { ad_ids: made, creatives: made.map((id) => ads.get(id)) };
      }
      case "POST ad/status/update/": {
        const advertiserId = advertiserOf(token, body);
        const ids = parseList(body.ad_ids, "ad_ids");
        statusUpdate(ads, ids, body.operation_status, advertiserId, "Ad");
        return { ad_ids: ids, status: body.operation_status };
      }
      case "GET identity/get/": {
        const advertiserId = advertiserOf(token, body);
        if (body.identity_type && !["CUSTOMIZED_USER", "AUTH_CODE", "TT_USER", "BC_AUTH_TT"].includes(body.identity_type))
          throw param("identity_type: Invalid enum value.");
        const list = (options.identities?.[advertiserId] ?? []).map((identity_id) => ({
          identity_id,
          identity_type: "CUSTOMIZED_USER",
          display_name: `Identity ${identity_id}`,
        }));
        const p = page(list, body);
        return { identity_list: p.list, page_info: p.page_info };
      }
      case "POST tool/targeting/search/": {
        advertiserOf(token, body);
        requireFields(body, ["objective_type", "placements", "search_type", "keywords"]);
        if (!OBJECTIVE_TYPES.includes(body.objective_type)) throw param("objective_type: Invalid enum value.");
        if (!["REACH", "VIDEO_VIEWS", "ENGAGEMENT"].includes(body.objective_type) && !body.promotion_type)
          throw param("promotion_type: Missing data for required field.");
        if (!Array.isArray(body.placements) || !body.placements.length) throw param("placements: Not a valid list.");
        if (!SEARCH_TYPES.includes(body.search_type)) throw param("search_type: Invalid enum value.");
        if (!Array.isArray(body.keywords) || !body.keywords.length) throw param("keywords: Not a valid list.");
        if (body.search_type === "FUZZY_SEARCH" && body.keywords.length !== 1) throw param("keywords: Only one keyword is allowed for FUZZY_SEARCH.");
        if (body.search_type !== "FUZZY_SEARCH" && !Array.isArray(body.region_codes)) throw param("region_codes: Missing data for required field.");
        const geoTypes: string[] = body.geo_types === undefined ? GEO_TYPES : body.geo_types;
        if (!Array.isArray(geoTypes) || geoTypes.some((t) => !GEO_TYPES.includes(t))) throw param("geo_types: Invalid enum value.");
        const list = [];
        for (const keyword of body.keywords.map(String)) {
          const hits = TIKTOK_GEO_TAGS.filter((t) => geoTypes.includes(t.geo_type) && t.name.toLowerCase().includes(keyword.toLowerCase()));
          for (const t of hits.slice(0, body.search_type === "FUZZY_SEARCH" ? 100 : 5))
            list.push({
              keyword,
              targeting_type: "GEO",
              name: t.name,
              status_info: "disabled" in t ? { status: "DISABLED", reason: "OFFLINE" } : { status: "ENABLED" },
              geo: { geo_id: t.geo_id, geo_type: t.geo_type, description: t.name, region_code: t.region_code, parent_id: t.parent_id },
            });
        }
        return { targeting_tag_list: list, parent_tags: [] };
      }
      case "GET dmp/custom_audience/list/": {
        advertiserOf(token, body);
        return page([{ audience_id: "9001", name: "Past buyers", cover_num: 120000 }], body);
      }
      case "GET report/integrated/get/": {
        const advertiserId = advertiserOf(token, body);
        if (body.report_type !== "BASIC") throw param("report_type: Invalid enum value.");
        if (body.data_level !== "AUCTION_AD") throw param("data_level: Invalid enum value.");
        const dims = parseList(body.dimensions, "dimensions");
        if (!dims.includes("ad_id") || !(dims.includes("stat_time_day") || dims.includes("stat_time_hour")))
          throw param("dimensions: ad_id and a time dimension are required.");
        const metrics = parseList(body.metrics, "metrics");
        requireFields(body, ["start_date", "end_date"]);
        const span = (Date.parse(body.end_date) - Date.parse(body.start_date)) / 86_400_000 + 1;
        if (!(span >= 1)) throw param("end_date: Must not be before start_date.");
        if (dims.includes("stat_time_day") && span > 30)
          throw new Refusal(40002, "The time span between start_date and end_date must be within 30 days when stat_time_day is a dimension.");
        if (dims.includes("stat_time_hour") && span > 1)
          throw new Refusal(40002, "The time span between start_date and end_date must be within 1 day when stat_time_hour is a dimension.");
        // filtering: [{ field_name, filter_type, filter_value (a JSON string) }]; ad_status defaults to STATUS_NOT_DELETE.
        let adFilter: string[] | null = null;
        let adStatus = ["STATUS_NOT_DELETE"];
        const filters = body.filtering ? (typeof body.filtering === "string" ? JSON.parse(body.filtering) : body.filtering) : [];
        if (!Array.isArray(filters)) throw param("filtering: Not a valid list.");
        for (const f of filters as Obj[]) {
          requireFields(f, ["field_name", "filter_type", "filter_value"]);
          if (typeof f.filter_value !== "string") throw param("filtering.filter_value: Not a valid string.");
          if (f.field_name === "ad_ids") adFilter = parseList(f.filter_value, "filtering.ad_ids");
          if (f.field_name === "ad_status") adStatus = parseList(f.filter_value, "filtering.ad_status");
        }
        const reported = (adId: string) => {
          const ad = ads.get(adId);
          if (ad?.advertiser_id !== advertiserId || (adFilter && !adFilter.includes(adId))) return false;
          return adStatus.includes("STATUS_ALL") || !ad.secondary_status?.includes("DELETE");
        };
        if (dims.includes("stat_time_hour")) {
          const rows = [...hourlyDelivery.entries()]
            .map(([k, m]) => ({ adId: k.split("|")[0]!, hour: k.split("|")[1]!, m }))
            .filter((r) => reported(r.adId) && r.hour.slice(0, 10) === body.start_date)
            .map((r) => ({
              dimensions: { ad_id: r.adId, stat_time_hour: `${r.hour}:00:00` },
              metrics: Object.fromEntries(metrics.map((name) => [name, r.m[name] ?? "0"])),
            }));
          return page(rows, body);
        }
        const rows = [...delivery.entries()]
          .map(([k, m]) => ({ adId: k.split("|")[0]!, day: k.split("|")[1]!, m }))
          .filter((r) => reported(r.adId) && r.day >= body.start_date && r.day <= body.end_date)
          .map((r) => ({
            dimensions: { ad_id: r.adId, stat_time_day: `${r.day} 00:00:00` },
            metrics: Object.fromEntries(metrics.map((name) => [name, r.m[name] ?? "0"])),
          }));
        return page(rows, body);
      }
      case "GET comment/list/": {
        const advertiserId = advertiserOf(token, body);
        requireFields(body, ["start_time", "end_time", "search_field", "search_value"]);
        if (body.search_field !== "ADGROUP_ID") throw param("search_field: Invalid enum value.");
        const types = parseList(body.comment_type, "comment_type");
        const statuses = parseList(body.comment_status, "comment_status");
        if (!types.every((t) => ["ALL", "COMMENT", "REPLY"].includes(t))) throw param("comment_type: Invalid enum value.");
        if (!statuses.every((t) => ["ALL", "PUBLIC", "HIDDEN"].includes(t))) throw param("comment_status: Invalid enum value.");
        const rows = [...comments.values()]
          .filter((c) => ads.get(c.ad_id)?.advertiser_id === advertiserId && c.adgroup_id === body.search_value)
          .filter((c) => !types.length || types.includes("ALL") || types.includes(c.comment_type))
          .filter((c) => !statuses.length || statuses.includes("ALL") || statuses.includes(c.comment_status))
          .filter((c) => {
            const day = new Date(Number(c.create_time) * 1000).toISOString().slice(0, 10);
            return day >= body.start_time && day <= body.end_time;
          })
          .sort((a, b) => Number(a.create_time) - Number(b.create_time) || a.comment_id.localeCompare(b.comment_id));
        if (body.sort_type === "DESC") rows.reverse();
        const p = page(rows, body);
        return { comments: p.list, page_info: p.page_info };
      }
      case "POST comment/status/update/": {
        const advertiserId = advertiserOf(token, body);
        requireFields(body, ["operation", "comment_ids"]);
        if (!["HIDDEN", "PUBLIC"].includes(body.operation)) throw param("operation: Must be one of: HIDDEN, PUBLIC.");
        for (const id of parseList(body.comment_ids, "comment_ids")) {
          const c = comments.get(id);
          if (!c || ads.get(c.ad_id)?.advertiser_id !== advertiserId) throw noSuchComment(id);
          c.comment_status = body.operation;
        }
        return {};
      }
      case "POST comment/post/": {
        const advertiserId = advertiserOf(token, body);
        requireFields(body, ["ad_id", "comment_id", "comment_type", "text", "identity_type", "identity_id"]);
        const parent = comments.get(String(body.comment_id));
        if (!parent || ads.get(parent.ad_id)?.advertiser_id !== advertiserId) throw noSuchComment(String(body.comment_id));
        if (body.ad_id !== parent.ad_id) throw param("ad_id: does not match the comment's ad.");
        if (body.tiktok_item_id !== parent.tiktok_item_id) throw param("tiktok_item_id: does not match the comment's video.");
        const reply = {
          ...parent,
          comment_id: nextId(),
          content: body.text,
          comment_type: "REPLY",
          comment_status: "PUBLIC",
          reply_to_comment_id: parent.comment_id,
          original_comment_id: parent.comment_id,
          create_time: String(Math.floor(Date.now() / 1000)),
          user_name: undefined,
          user_id: undefined,
          identity_id: body.identity_id,
          identity_type: body.identity_type,
        };
        comments.set(reply.comment_id, reply);
        parent.replies = (parent.replies ?? 0) + 1;
        return reply;
      }
      case "POST comment/delete/": {
        const advertiserId = advertiserOf(token, body);
        requireFields(body, ["ad_id", "tiktok_item_id", "comment_id", "identity_type", "identity_id"]);
        const c = comments.get(String(body.comment_id));
        if (!c || ads.get(c.ad_id)?.advertiser_id !== advertiserId) throw noSuchComment(String(body.comment_id));
        if (body.ad_id !== c.ad_id) throw param("ad_id: does not match the comment's ad.");
        if (body.tiktok_item_id !== c.tiktok_item_id) throw param("tiktok_item_id: does not match the comment's video.");
        // The advertiser deletes only its own comments (the reference's description of /comment/delete/).
        if (c.user_name || c.identity_id !== body.identity_id || c.identity_type !== body.identity_type)
          throw new Refusal(40002, "You can only delete your own comments.");
        fake.authorDeletes(c.comment_id);
        return {};
      }
    }
    throw new Refusal(40400, `Unknown endpoint ${method} ${route}`);
  }

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://fake");
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const raw = Buffer.concat(chunks);
      const type = String(req.headers["content-type"] ?? "");
      let body: Obj = Object.fromEntries(url.searchParams);
      const request_id = `2026${String(++n).padStart(10, "0")}`;
      const answer = (code: number, message: string, data: unknown = {}) => {
        res.writeHead(200, { "Content-Type": "application/json" });
        res.end(JSON.stringify({ code, message, request_id, data }));
      };
      try {
        if (type.startsWith("application/json") && raw.length) body = JSON.parse(raw.toString("utf8"));
        else if (type.startsWith("multipart/form-data")) {
          const form = await new Response(raw, { headers: { "content-type": type } }).formData();
          body = {};
          for (const [k, v] of form) {
            if (typeof v === "string") body[k] = v;
            else {
              const bytes = Buffer.from(await v.arrayBuffer());
              body[k] = { name: v.name, size: bytes.length, md5: md5(bytes), bytes };
            }
          }
        }
      } catch {
        requests.push({ method: req.method ?? "GET", path: url.pathname, query: url.searchParams, headers: req.headers, body: null, at: Date.now() });
        return answer(40002, "Request body is not valid.");
      }
      requests.push({ method: req.method ?? "GET", path: url.pathname, query: url.searchParams, headers: req.headers, body, at: Date.now() });
      if (url.pathname === "/portal/auth") {
        const grant = [options.oauth ?? []].flat()[0];
        const redirect = url.searchParams.get("redirect_uri");
        if (!grant || !redirect || url.searchParams.get("app_id") !== grant.appId) return answer(40001, "app_id or redirect_uri is invalid.");
        const back = new URL(redirect);
        back.searchParams.set("auth_code", grant.code);
        back.searchParams.set("state", url.searchParams.get("state") ?? "");
        res.writeHead(302, { Location: back.toString() });
        res.end();
        return;
      }
      if (!url.pathname.startsWith(PATH)) return answer(40400, "Not found");
      const route = url.pathname.slice(PATH.length);
      const grants = [options.oauth ?? []].flat();
      if (grants.length && route === "oauth2/access_token/" && req.method === "POST") {
        const o = grants.find((g) => g.code === body.auth_code);
        if (!o || body.app_id !== o.appId || body.secret !== o.secret) return answer(40110, "Invalid auth_code.");
        tokens.set(o.token, new Set(o.advertiserIds));
        return answer(0, "OK", { access_token: o.token, advertiser_ids: o.advertiserIds, scope: [4, 5] });
      }
      // The authorized advertisers with their names: app_id and secret in the query, the token in the header.
      if (grants.length && route === "oauth2/advertiser/get/" && req.method === "GET") {
        const o = grants.find((g) => g.appId === url.searchParams.get("app_id") && g.secret === url.searchParams.get("secret"));
        if (!o) return answer(40001, "app_id or secret is invalid.");
        const ids = tokens.get(String(req.headers["access-token"] ?? ""));
        if (!ids) return answer(40105, "Access token is incorrect or has been revoked.");
        return answer(0, "OK", { list: [...ids].map((id) => ({ advertiser_id: id, advertiser_name: options.advertisers[id]?.name ?? id })) });
      }
      const token = String(req.headers["access-token"] ?? "");
      if (!token) return answer(40104, "Access token is null, please carry it in the header.");
      if (!tokens.has(token)) return answer(40105, "Access token is incorrect or has been revoked.");
      if (throttled > 0) {
        throttled--;
        return answer(40100, "Requests made too frequently. Please try again later.");
      }
      const failure = failures.get(route);
      if (failure) {
        failures.delete(route);
        return answer(failure.code, failure.message);
      }
      const held = holds.findIndex((h) => h.route === route && (!h.params || h.params(body)));
      if (held >= 0) {
        const [hold] = holds.splice(held, 1);
        hold!.arrive();
        await hold!.released;
      }
      try {
        const data = handle(token, req.method ?? "GET", route, body);
        if (dropped.delete(route)) return answer(50002, "System timeout, please try again later.");
        answer(0, "OK", data);
        const after = afters.findIndex((a) => a.route === route && a.params(body));
        if (after >= 0) afters.splice(after, 1)[0]!.then();
      } catch (err) {
        if (err instanceof Refusal) return answer(err.code, err.message);
        answer(50000, `System error: ${(err as Error).message}`);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.authorizeUrl = `${fake.url}/portal/auth`;
  fake.close = () => new Promise((resolve) => server.close(() => resolve()));
  return fake;
}
