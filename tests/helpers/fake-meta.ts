import { createHash, createHmac } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A stateful local stand-in for the parts of Meta's Graph API (Marketing API) that platform_a's live
 * adapter calls, written from Meta's published reference: ad account read, OAuth code and
 * long-lived token exchange, /me/adaccounts and /me/accounts, /act_<id>/adimages (bytes -> hash),
 * /act_<id>/advideos resumable upload (start / transfer / finish) and the video's `status`,
 * /act_<id>/campaigns, adsets, adcreatives, ads (create, list with `filtering` and cursor paging,
 * read and update by id), batch requests (POST / with `batch`, `{result=name:$.id}` references),
 * /act_<id>/insights (level=ad, time_increment=1, date_preset=maximum, the hourly breakdowns; deleted and archived ads
 * only when `filtering` on ad.effective_status asks for them), customaudiences, the Page's
 * token, comments on ad posts (filter=stream, is_hidden, replies, delete), leadgen_forms and leads.
 *
 * Every call checks the token and, with an app secret, `appsecret_proof`; parameters are checked
 * as documented (required ones, enums, JSON-valued ones) and refused in Graph's error shape
 * `{error: {message, type, code, error_subcode, error_user_title, error_user_msg, fbtrace_id}}`.
 * `failNext` injects an error (rate limits with their usage headers included).
 */

interface Answer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export interface GraphRequest {
  method: string;
  path: string;
  params: Record<string, string>;
  /** The file part of a multipart POST (a video chunk). */
  file?: Buffer;
  /** When it arrived (ms since the epoch). */
  at: number;
}

interface Obj {
  id: string;
  [k: string]: any;
}

interface Comment {
  id: string;
  postId: string;
  from: { id: string; name: string };
  message: string;
  created_time: string;
  is_hidden: boolean;
  parent?: { id: string };
  deleted?: boolean;
}

interface Lead {
  id: string;
  form_id: string;
  ad_id: string | null;
  created_time: string;
  field_data: { name: string; values: string[] }[];
}

export interface FakeMeta {
  url: string;
  /** The Login dialog: it sends the browser straight back to redirect_uri with the first `oauth` grant's code and the state. */
  authorizeUrl: string;
  requests: GraphRequest[];
  grant(token: string, accountIds: string[], pageIds?: string[]): void;
  revoke(token: string): void;
  /** The next call whose path matches answers this Graph error (HTTP 400 unless said otherwise). */
  failNext(pathPattern: RegExp, error: Record<string, unknown>, options?: { status?: number; headers?: Record<string, string>; times?: number }): void;
  /** The next matching call (path, and a parameter test) is held unanswered until the returned release is called. */
  holdNext(pathPattern: RegExp, params?: (p: Record<string, string>) => boolean): { arrived: Promise<void>; release(): void };
  /** The next matching call is carried out, but its answer is lost (a 500, as if the connection dropped after the write). */
  loseNextAnswer(pathPattern: RegExp): void;
  objects: Map<string, Obj>;
  /** Resumable video uploads so far: sessions started, transfer calls (refused ones too), videos finished. */
  videoCounts: { started: number; transfers: number; finished: number };
  /** Delivery of an ad on a day (what /insights reports). */
  setInsights(
    adId: string,
    date: string,
    row: { impressions: number; reach: number; clicks: number; spend: string; purchases?: number; purchaseValue?: string; frequency?: number },
  ): void;
  /** Delivery of an ad in one hour of a day, the account's time zone (what the hourly breakdown reports). */
  setHourlyInsights(
    adId: string,
    date: string,
    hour: number,
    row: { impressions: number; clicks: number; spend: string; purchases?: number; purchaseValue?: string },
  ): void;
  /** A person comments on the ad's post. */
  comment(adId: string, message: string, options?: { author?: string; at?: Date }): Comment;
  comments: Map<string, Comment>;
  addLead(formId: string, lead: { adId?: string | null; at: Date; fields: Record<string, string> }): Lead;
  /** Another lead form on the Page, its questions' keys as the advertiser wrote them (custom questions): answers its id. */
  addLeadForm(pageId: string, name: string, questionKeys: string[]): string;
  close(): Promise<void>;
}

const graphError = (message: string, code: number, extra: Record<string, unknown> = {}) => ({
  status: 400,
  body: { error: { message, type: code === 190 ? "OAuthException" : "GraphMethodException", code, fbtrace_id: "AfakeTrace", ...extra } },
});
/** Graph's answer for an object that is not there (deleted, never existed, or not visible to the token): code 100, subcode 33. */
const noSuchObject = (method: string, id: string) =>
  graphError(
    `Unsupported ${method.toLowerCase()} request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation. Please read the Graph API documentation at https://developers.facebook.com/docs/graph-api`,
    100,
    { error_subcode: 33 },
  );
const invalidParam = (message: string, userMsg?: string) =>
  graphError(`(#100) ${message}`, 100, userMsg ? { error_subcode: 1487000, error_user_title: "Invalid parameter", error_user_msg: userMsg } : {});

/**
 * The places Targeting Search (GET /search?type=adgeolocation) knows, in its answer's shape: a country's key is
 * its ISO code; regions and cities have numeric keys, which geo_locations.regions / cities take as `{ key }`.
 */
export const META_GEO_LOCATIONS = [
  { key: "US", name: "United States", type: "country", country_code: "US", country_name: "United States", supports_region: true, supports_city: true },
  { key: "DE", name: "Germany", type: "country", country_code: "DE", country_name: "Germany", supports_region: true, supports_city: true },
  { key: "3847", name: "California", type: "region", country_code: "US", country_name: "United States", supports_region: true, supports_city: true },
  { key: "1651", name: "Bavaria", type: "region", country_code: "DE", country_name: "Germany", supports_region: true, supports_city: true },
  { key: "1650", name: "Berlin", type: "region", country_code: "DE", country_name: "Germany", supports_region: true, supports_city: true },
  {
    key: "2421836",
    name: "San Francisco",
    type: "city",
    country_code: "US",
    country_name: "United States",
    region: "California",
    region_id: 3847,
    supports_region: true,
    supports_city: true,
  },
  {
    key: "539519",
    name: "Munich",
    type: "city",
    country_code: "DE",
    country_name: "Germany",
    region: "Bavaria",
    region_id: 1651,
    supports_region: true,
    supports_city: true,
  },
  {
    key: "538985",
    name: "Berlin",
    type: "city",
    country_code: "DE",
    country_name: "Germany",
    region: "Berlin",
    region_id: 1650,
    supports_region: true,
    supports_city: true,
  },
] as const;
const META_LOCATION_TYPES = [
  "country",
  "country_group",
  "region",
  "city",
  "zip",
  "geo_market",
  "electoral_district",
  "neighborhood",
  "subcity",
  "subneighborhood",
  "large_geo_area",
  "medium_geo_area",
  "small_geo_area",
  "metro_area",
  "place",
];

/** Targeting Search for places: `type=adgeolocation`, `q`, optional `location_types` (a JSON array of Meta's types) and `limit`. */
function geoSearch(params: Record<string, string>): Answer {
  if (params.type !== "adgeolocation") return invalidParam("Param type must be one of {adgeolocation, adinterest, ...}");
  if (!params.q?.trim()) return invalidParam("The parameter q is required");
  let types: string[] = META_LOCATION_TYPES;
  if (params.location_types !== undefined) {
    const parsed = parseJson(params.location_types);
    if (!Array.isArray(parsed) || parsed.some((t) => !META_LOCATION_TYPES.includes(t)))
      return invalidParam('Param location_types must be a JSON array of location types, e.g. ["region","city"]');
    types = parsed;
  }
  const limit = params.limit === undefined ? 25 : Number(params.limit);
  if (!Number.isInteger(limit) || limit < 1) return invalidParam("Param limit must be a positive integer");
  const q = params.q.trim().toLowerCase();
  const data = META_GEO_LOCATIONS.filter((l) => types.includes(l.type) && l.name.toLowerCase().includes(q)).slice(0, limit);
  return { status: 200, body: { data } };
}

/** geo_locations as the ad set's targeting takes it: at least one place; regions and cities as `{ key }` of known places of that type. */
function geoProblem(geo: any): Answer | null {
  const countries = geo?.countries ?? [];
  const regions = geo?.regions ?? [];
  const cities = geo?.cities ?? [];
  if (![countries, regions, cities].every(Array.isArray) || countries.length + regions.length + cities.length === 0)
    return invalidParam("Param targeting must include geo_locations", "Your audience is missing a location.");
  for (const [type, places] of [
    ["region", regions],
    ["city", cities],
  ] as const)
    for (const place of places as any[]) {
      const key = place && typeof place === "object" ? String(place.key ?? "") : "";
      if (!META_GEO_LOCATIONS.some((l) => l.type === type && l.key === key))
        return invalidParam(`Invalid ${type} key in geo_locations: ${JSON.stringify(place)}`, `The ${type} you chose is not a valid location.`);
    }
  return null;
}

const OBJECTIVES = ["OUTCOME_AWARENESS", "OUTCOME_TRAFFIC", "OUTCOME_ENGAGEMENT", "OUTCOME_LEADS", "OUTCOME_APP_PROMOTION", "OUTCOME_SALES"];
const STATUSES = ["ACTIVE", "PAUSED", "DELETED", "ARCHIVED"];
/** The Ad reference's effective_status values. */
const AD_EFFECTIVE_STATUSES = [
  "ACTIVE",
  "PAUSED",
  "DELETED",
  "PENDING_REVIEW",
  "DISAPPROVED",
  "PREAPPROVED",
  "PENDING_BILLING_INFO",
  "CAMPAIGN_PAUSED",
  "ARCHIVED",
  "ADSET_PAUSED",
  "IN_PROCESS",
  "WITH_ISSUES",
];
const BILLING_EVENTS = ["APP_INSTALLS", "CLICKS", "IMPRESSIONS", "LINK_CLICKS", "NONE", "OFFER_CLAIMS", "PAGE_LIKES", "POST_ENGAGEMENT", "THRUPLAY"];
const OPTIMIZATION_GOALS = [
  "NONE",
  "APP_INSTALLS",
  "IMPRESSIONS",
  "LEAD_GENERATION",
  "LINK_CLICKS",
  "OFFSITE_CONVERSIONS",
  "POST_ENGAGEMENT",
  "REACH",
  "THRUPLAY",
  "LANDING_PAGE_VIEWS",
];
const CTA_TYPES = ["LEARN_MORE", "SHOP_NOW", "SIGN_UP", "DOWNLOAD", "CONTACT_US", "BOOK_TRAVEL", "GET_OFFER", "SUBSCRIBE", "APPLY_NOW"];

let sequence = 0;
const nextId = () => String(120200000000000000n + BigInt(++sequence) * 7919n);

function parseJson(value: string | undefined): any {
  if (value === undefined) return undefined;
  try {
    return JSON.parse(value);
  } catch {
    return Symbol.for("invalid");
  }
}
const INVALID = Symbol.for("invalid");

/** Graph's `fields` projection: top-level names (sub-selections `a{b,c}` return the whole nested object). */
function project(obj: Record<string, any>, fields: string | undefined): Record<string, any> {
  const names: string[] = [];
  let depth = 0;
  let current = "";
  for (const ch of fields ?? "") {
    if (ch === "{") depth++;
    if (ch === "}") depth--;
    if (ch === "," && depth === 0) {
      names.push(current);
      current = "";
    } else current += ch;
  }
  if (current) names.push(current);
  const top = names.map((n) => n.replace(/\{.*$/s, "").trim()).filter(Boolean);
  const out: Record<string, any> = { id: obj.id };
  for (const n of top) if (obj[n] !== undefined) out[n] = obj[n];
  return out;
}

function cursorPage(items: Record<string, any>[], params: Record<string, string>): Answer {
  const limit = Math.max(1, Math.min(Number(params.limit ?? 25) || 25, 500));
  const start = params.after ? Number(Buffer.from(params.after, "base64").toString()) : 0;
  const page = items.slice(start, start + limit);
  const end = start + page.length;
  const cursors = { before: Buffer.from(String(start)).toString("base64"), after: Buffer.from(String(end)).toString("base64") };
  return {
    status: 200,
    body: { data: page, paging: { cursors, ...(end < items.length ? { next: `https://graph.facebook.com/next?after=${cursors.after}` } : {}) } },
  };
}

function matchesFiltering(obj: Record<string, any>, filtering: any[]): boolean {
  return filtering.every((f) => {
    const value = f.field === "ad.id" ? obj.ad_id : f.field === "time_created" ? Math.floor(Date.parse(obj.created_time) / 1000) : obj[f.field];
    switch (f.operator) {
      case "CONTAIN":
        return String(value ?? "").includes(String(f.value));
      case "IN":
        return (f.value as unknown[]).map(String).includes(String(value));
      case "EQUAL":
        return String(value) === String(f.value);
      case "GREATER_THAN":
        return Number(value) > Number(f.value);
      case "LESS_THAN":
        return Number(value) < Number(f.value);
      default:
        return false;
    }
  });
}

const graphTime = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, "+0000");

/** One Login dialog code the app may exchange, and the token and accounts/Pages it is worth. */
export interface MetaOAuthGrant {
  code: string;
  token: string;
  accountIds: string[];
  pageIds?: string[];
}

export async function fakeMeta(options: {
  version: string;
  appSecret?: string;
  appId?: string;
  accounts: Record<string, { name: string; currency: string; timezone_name: string; account_status: number }>;
  pages?: Record<string, { name: string }>;
  /** The Login dialog's code the app may exchange, and the token and accounts/pages it is worth. */
  oauth?: MetaOAuthGrant | MetaOAuthGrant[];
  /** Bytes per transfer chunk Meta asks for (it decides, the client follows). */
  videoChunkBytes?: number;
  /** Status reads a video stays `processing` after finish. */
  videoProcessingPolls?: number;
  /** The most items Graph answers per page of /me/adaccounts and /me/accounts, whatever `limit` asks (Graph caps it too): forces cursor paging. */
  listPageSize?: number;
}): Promise<FakeMeta> {
  const v = `/${options.version}`;
  const grants = new Map<string, { accounts: Set<string>; pages: Set<string> }>();
  const pageTokens = new Map<string, string>(); // page token -> page id
  const objects = new Map<string, Obj>();
  const images = new Map<string, Set<string>>(); // account -> hashes
  /** Resumable video uploads: the bytes so far and the range Meta named next ([offset, end)). */
  const sessions = new Map<string, { videoId: string; size: number; received: Buffer[]; offset: number; end: number }>();
  const videoCounts = { started: 0, transfers: 0, finished: 0 };
  const insights = new Map<string, Map<string, any>>(); // ad -> date -> row
  const hourlyInsights = new Map<string, Map<string, any>>(); // ad -> "date|hour" -> row
  const comments = new Map<string, Comment>();
  const leads: Lead[] = [];
  const failures: { pattern: RegExp; answer: Answer; times: number }[] = [];
  const lost: RegExp[] = [];
  const holds: { pattern: RegExp; params?: (p: Record<string, string>) => boolean; arrive(): void; released: Promise<void> }[] = [];
  const requests: GraphRequest[] = [];
  const chunk = options.videoChunkBytes ?? 64 * 1024;

  for (const [pageId, page] of Object.entries(options.pages ?? {})) {
    objects.set(pageId, { id: pageId, kind: "page", name: page.name });
    for (const [i, name] of ["Newsletter sign-up", "Request a quote"].entries()) {
      const formId = `${pageId}${i + 1}01`;
      objects.set(formId, {
        id: formId,
        kind: "leadgen_form",
        pageId,
        name,
        status: "ACTIVE",
        questions:
          i === 0
            ? [
                { key: "full_name", type: "FULL_NAME" },
                { key: "email", type: "EMAIL" },
              ]
            : [
                { key: "full_name", type: "FULL_NAME" },
                { key: "email", type: "EMAIL" },
                { key: "phone_number", type: "PHONE" },
              ],
      });
    }
  }

  const accountOf = (token: string, accountId: string) => grants.get(token)?.accounts.has(accountId) ?? false;

  function checkToken(params: Record<string, string>): Answer | { token: string; pageId?: string } {
    const token = params.access_token ?? "";
    if (!grants.has(token) && !pageTokens.has(token))
      return graphError(
        "Error validating access token: The session has been invalidated because the user changed their password or Facebook has changed the session for security reasons.",
        190,
        { error_subcode: 460 },
      );
    if (options.appSecret && params.appsecret_proof !== createHmac("sha256", options.appSecret).update(token).digest("hex"))
      return graphError("Invalid appsecret_proof provided in the API argument", 100);
    return { token, pageId: pageTokens.get(token) };
  }

  function handle(req: GraphRequest): Answer {
    const { method, params } = req;
    const path = req.path.startsWith(v) ? req.path.slice(v.length) : null;
    if (path === null) return graphError("Unknown path components", 2500);
    for (const f of failures) {
      if (f.times > 0 && f.pattern.test(path)) {
        f.times--;
        return f.answer;
      }
    }
    if (path === "/oauth/access_token") return exchange(params);
    const auth = checkToken(params);
    if ("status" in auth) return auth;
    const { token } = auth;
    if (path === "" || path === "/") return batch(params, token);
    const capped = (p: Record<string, string>) =>
      options.listPageSize ? { ...p, limit: String(Math.min(Number(p.limit ?? 25) || 25, options.listPageSize)) } : p;
    if (path === "/me/adaccounts") {
      const g = grants.get(token);
      return cursorPage(
        [...(g?.accounts ?? [])].map((id) => ({ id, account_id: id.slice(4), name: options.accounts[id]?.name })),
        capped(params),
      );
    }
    if (path === "/me/accounts") {
      const g = grants.get(token);
      return cursorPage(
        [...(g?.pages ?? [])].map((id) => ({ id, name: objects.get(id)?.name, tasks: ["ADVERTISE", "MODERATE", "CREATE_CONTENT"] })),
        capped(params),
      );
    }
    if (path === "/search") return method === "GET" ? geoSearch(params) : invalidParam("Unsupported post request");
    const edge = /^\/(act_\d+)\/(\w+)$/.exec(path);
    if (edge) {
      const [, accountId, name] = edge as unknown as [string, string, string];
      if (!options.accounts[accountId] || !accountOf(token, accountId)) return noSuchObject(method, accountId);
      return accountEdge(method, accountId, name, req);
    }
    const node = /^\/([\w]+)(?:\/(\w+))?$/.exec(path);
    if (!node) return graphError("Unsupported request", 100);
    const [, id, sub] = node as unknown as [string, string, string | undefined];
    if (/^act_\d+$/.test(id) && !sub) {
      if (method !== "GET") return invalidParam("Unsupported post request");
      const account = options.accounts[id];
      if (!account || !accountOf(token, id)) return noSuchObject("GET", id);
      return { status: 200, body: project({ id, ...account }, params.fields) };
    }
    return nodeCall(method, id, sub, req, auth);
  }

  function exchange(params: Record<string, string>): Answer {
    if (params.client_id !== options.appId || params.client_secret !== options.appSecret) return graphError("Error validating client secret.", 1);
    if (params.grant_type === "fb_exchange_token") {
      const short = params.fb_exchange_token ?? "";
      const g = grants.get(short);
      if (!g) return graphError("Error validating access token: Session has expired.", 190, { error_subcode: 463 });
      const long = `${short}-long`;
      grants.set(long, g);
      return { status: 200, body: { access_token: long, token_type: "bearer", expires_in: 5183944 } };
    }
    const o = [options.oauth ?? []].flat().find((g) => g.code === params.code);
    if (!o || !params.redirect_uri) return graphError("Invalid verification code format.", 100);
    grants.set(o.token, { accounts: new Set(o.accountIds), pages: new Set(o.pageIds ?? []) });
    return { status: 200, body: { access_token: o.token, token_type: "bearer", expires_in: 3600 } };
  }

  function batch(params: Record<string, string>, token: string): Answer {
    const calls = parseJson(params.batch);
    if (!Array.isArray(calls) || calls.length === 0 || calls.length > 50)
      return invalidParam("The parameter batch is required and must be a JSON array of at most 50 requests");
    const named = new Map<string, any>();
    const out = calls.map((call: any) => {
      const substitute = (s: string) =>
        s.replace(/\{result=([\w-]+):\$\.(\w+)\}/g, (_, name: string, field: string) => encodeURIComponent(String(named.get(name)?.[field] ?? "")));
      const [path, query] = substitute(String(call.relative_url ?? "")).split("?");
      const inner: Record<string, string> = {
        ...Object.fromEntries(new URLSearchParams(query ?? "")),
        ...Object.fromEntries(new URLSearchParams(substitute(String(call.body ?? "")))),
        access_token: token,
      };
      if (options.appSecret) inner.appsecret_proof = createHmac("sha256", options.appSecret).update(token).digest("hex");
      const answer = handle({ method: String(call.method ?? "GET").toUpperCase(), path: `${v}/${path!.replace(/^\//, "")}`, params: inner, at: Date.now() });
      if (call.name && answer.status === 200) named.set(call.name, answer.body);
      return {
        code: answer.status,
        headers: Object.entries(answer.headers ?? {}).map(([name, value]) => ({ name, value })),
        body: JSON.stringify(answer.body),
      };
    });
    return { status: 200, body: out };
  }

  function list(kind: string, accountId: string, params: Record<string, string>, extra?: (o: Obj) => boolean): Answer {
    const filtering = params.filtering ? parseJson(params.filtering) : [];
    if (filtering === INVALID || !Array.isArray(filtering)) return invalidParam("Param filtering must be an array of {field, operator, value}");
    const items = [...objects.values()]
      .filter((o) => o.kind === kind && o.account_id === accountId && o.status !== "DELETED" && (!extra || extra(o)) && matchesFiltering(o, filtering))
      .map((o) => project(view(o), params.fields));
    return cursorPage(items, params);
  }

  /** What an object reads as (ads expand their creative). */
  function view(o: Obj): Record<string, any> {
    if (o.kind === "ad") {
      const creative = objects.get(o.creative_id);
      return {
        ...o,
        creative: creative
          ? { id: creative.id, object_story_spec: creative.object_story_spec, effective_object_story_id: creative.effective_object_story_id }
          : undefined,
      };
    }
    return o;
  }

  function accountEdge(method: string, accountId: string, name: string, req: GraphRequest): Answer {
    const p = req.params;
    const now = graphTime(new Date());
    if (method === "GET") {
      if (name === "campaigns") return list("campaign", accountId, p);
      if (name === "adsets") return list("adset", accountId, p);
      if (name === "ads") return list("ad", accountId, p);
      if (name === "adcreatives") return list("adcreative", accountId, p);
      if (name === "customaudiences") return list("custom_audience", accountId, p);
      // An account's videos, newest first.
      if (name === "advideos")
        return cursorPage(
          [...objects.values()]
            .filter((o) => o.kind === "video" && o.account_id === accountId)
            .reverse()
            .map((o) => project({ id: o.id, title: o.title, status: videoStatusNow(o) }, p.fields)),
          p,
        );
      if (name === "insights") return insightsOf(accountId, p);
      return invalidParam(`Tried accessing nonexisting field (${name})`);
    }
    if (method !== "POST") return invalidParam("Unsupported request");
    if (name === "adimages") {
      if (!p.bytes) return invalidParam("The parameter bytes or filename is required");
      const bytes = Buffer.from(p.bytes, "base64");
      if (bytes.length === 0)
        return graphError("Invalid image", 100, { error_subcode: 1487242, error_user_title: "Image Too Small", error_user_msg: "The image is empty." });
      const hash = createHash("md5").update(bytes).digest("hex");
      if (!images.has(accountId)) images.set(accountId, new Set());
      images.get(accountId)!.add(hash);
      const key = p.name || "bytes";
      return { status: 200, body: { images: { [key]: { hash, url: `https://scontent.example/${hash}.png` } } } };
    }
    if (name === "advideos") return videoPhase(accountId, req);
    if (name === "campaigns") {
      if (!p.name) return invalidParam("The parameter name is required");
      if (!OBJECTIVES.includes(p.objective ?? "")) return invalidParam("Param objective must be one of {" + OBJECTIVES.join(", ") + "}");
      const categories = parseJson(p.special_ad_categories);
      if (!Array.isArray(categories))
        return invalidParam("The parameter special_ad_categories is required", "Specify a special ad category or NONE for this campaign.");
      if (!STATUSES.includes(p.status ?? "ACTIVE")) return invalidParam("Param status must be one of {ACTIVE, PAUSED, DELETED, ARCHIVED}");
      if (p.is_adset_budget_sharing_enabled === undefined && !p.daily_budget && !p.lifetime_budget)
        return invalidParam(
          "Must specify True or False in is_adset_budget_sharing_enabled field",
          "Must specify True or False in is_adset_budget_sharing_enabled field if you are not using campaign budget.",
        );
      const id = nextId();
      objects.set(id, {
        id,
        kind: "campaign",
        account_id: accountId,
        name: p.name,
        objective: p.objective,
        status: p.status ?? "ACTIVE",
        special_ad_categories: categories,
        created_time: now,
      });
      return { status: 200, body: { id } };
    }
    if (name === "adsets") {
      const campaign = objects.get(p.campaign_id ?? "");
      if (!p.name) return invalidParam("The parameter name is required");
      if (campaign?.kind !== "campaign" || campaign.account_id !== accountId) return invalidParam("Param campaign_id must be a valid campaign id");
      if (!BILLING_EVENTS.includes(p.billing_event ?? "")) return invalidParam("The parameter billing_event is required");
      if (!OPTIMIZATION_GOALS.includes(p.optimization_goal ?? "")) return invalidParam("Param optimization_goal is invalid");
      if (!!p.daily_budget === !!p.lifetime_budget)
        return invalidParam("Either daily_budget or lifetime_budget must be set", "Set either a daily budget or a lifetime budget.");
      for (const b of [p.daily_budget, p.lifetime_budget])
        if (b !== undefined && !/^\d+$/.test(b)) return invalidParam("Budget must be an integer in the account currency's minimum unit");
      if (p.lifetime_budget && !p.end_time)
        return invalidParam("end_time is required for lifetime budgets", "Ad sets with a lifetime budget need an end date.");
      const targeting = parseJson(p.targeting);
      if (!targeting || targeting === INVALID) return invalidParam("Param targeting must include geo_locations", "Your audience is missing a location.");
      const badGeo = geoProblem(targeting.geo_locations);
      if (badGeo) return badGeo;
      if (p.optimization_goal === "LEAD_GENERATION" && !parseJson(p.promoted_object)?.page_id)
        return invalidParam("promoted_object with page_id is required for lead ads");
      const id = nextId();
      objects.set(id, {
        id,
        kind: "adset",
        account_id: accountId,
        campaign_id: campaign.id,
        name: p.name,
        status: p.status ?? "ACTIVE",
        daily_budget: p.daily_budget,
        lifetime_budget: p.lifetime_budget,
        billing_event: p.billing_event,
        optimization_goal: p.optimization_goal,
        targeting,
        start_time: p.start_time ? graphTime(new Date(p.start_time)) : now,
        end_time: p.end_time ? graphTime(new Date(p.end_time)) : undefined,
        created_time: now,
      });
      return { status: 200, body: { id } };
    }
    if (name === "adcreatives") {
      const spec = parseJson(p.object_story_spec);
      if (!spec || spec === INVALID) return invalidParam("The parameter object_story_spec is required");
      const page = objects.get(String(spec.page_id ?? ""));
      if (page?.kind !== "page") return invalidParam("Param object_story_spec[page_id] must be a valid Page id");
      const data = spec.link_data ?? spec.video_data;
      if (!data) return invalidParam("object_story_spec needs link_data or video_data");
      if (data.call_to_action && !CTA_TYPES.includes(data.call_to_action.type)) return invalidParam("Invalid call_to_action type");
      if (spec.link_data) {
        if (!spec.link_data.link) return invalidParam("link_data[link] is required", "Your ad needs a website URL.");
        if (!images.get(accountId)?.has(spec.link_data.image_hash))
          return invalidParam("Invalid image hash", "The image hash does not belong to this ad account.");
      } else {
        const video = objects.get(String(spec.video_data.video_id ?? ""));
        if (video?.kind !== "video" || video.account_id !== accountId) return invalidParam("Invalid video_id");
        if (!spec.video_data.image_url && !spec.video_data.image_hash)
          return invalidParam("video_data requires image_url or image_hash for the thumbnail", "Your video ad needs a thumbnail.");
      }
      const id = nextId();
      const post = `${spec.page_id}_${nextId()}`;
      objects.set(id, { id, kind: "adcreative", account_id: accountId, name: p.name, object_story_spec: spec, effective_object_story_id: post });
      return { status: 200, body: { id } };
    }
    if (name === "ads") {
      const adSet = objects.get(p.adset_id ?? "");
      const creativeRef = parseJson(p.creative);
      const creative = objects.get(String(creativeRef?.creative_id ?? ""));
      if (!p.name) return invalidParam("The parameter name is required");
      if (adSet?.kind !== "adset" || adSet.account_id !== accountId) return invalidParam("Param adset_id must be a valid ad set id");
      if (creative?.kind !== "adcreative") return invalidParam("Param creative must name a creative_id of this account");
      const id = nextId();
      objects.set(id, {
        id,
        kind: "ad",
        account_id: accountId,
        adset_id: adSet.id,
        campaign_id: adSet.campaign_id,
        name: p.name,
        status: p.status ?? "ACTIVE",
        creative_id: creative.id,
        created_time: now,
      });
      return { status: 200, body: { id } };
    }
    return invalidParam(`Unsupported post request (${name})`);
  }

  function videoPhase(accountId: string, req: GraphRequest): Answer {
    const p = req.params;
    if (p.upload_phase === "start") {
      const size = Number(p.file_size);
      if (!Number.isInteger(size) || size <= 0) return invalidParam("file_size must be a positive integer");
      const videoId = nextId();
      const sessionId = nextId();
      objects.set(videoId, { id: videoId, kind: "video", account_id: accountId, polls: 0, finished: false });
      sessions.set(sessionId, { videoId, size, received: [], offset: 0, end: Math.min(chunk, size) });
      videoCounts.started++;
      return { status: 200, body: { video_id: videoId, upload_session_id: sessionId, start_offset: "0", end_offset: String(Math.min(chunk, size)) } };
    }
    const session = sessions.get(p.upload_session_id ?? "");
    if (!session) return graphError("Invalid upload session id", 100, { error_subcode: 1363019 });
    if (p.upload_phase === "transfer") {
      videoCounts.transfers++;
      // As documented: a wrong start_offset is refused (subcode 1363037) with the range Meta expects in error_data.
      // A chunk must also stay inside the range Meta named.
      const fits = req.file && req.file.length > 0 && session.offset + req.file.length <= session.end;
      if (Number(p.start_offset) !== session.offset || !fits)
        return graphError("There was a problem uploading your video. Please try uploading it again.", 6001, {
          error_subcode: 1363037,
          error_data: { start_offset: session.offset, end_offset: session.end },
        });
      session.received.push(req.file!);
      session.offset += req.file!.length;
      session.end = Math.min(session.offset + chunk, session.size);
      return { status: 200, body: { start_offset: String(session.offset), end_offset: String(session.end) } };
    }
    if (p.upload_phase === "finish") {
      if (session.offset !== session.size) return graphError("The video upload is incomplete", 100, { error_subcode: 1363040 });
      const video = objects.get(session.videoId)!;
      if (!video.finished) videoCounts.finished++;
      video.finished = true;
      video.title = p.title;
      video.size = Buffer.concat(session.received).length;
      // Steered by the title: a video named meta-broken* fails processing, as an undecodable file would.
      video.broken = String(p.title ?? "").startsWith("meta-broken");
      return { status: 200, body: { success: true } };
    }
    return invalidParam("upload_phase must be one of {start, transfer, finish, cancel}");
  }

  /** The status without counting a poll (what a list shows). */
  function videoStatusNow(video: Obj): Record<string, unknown> {
    if (!video.finished) return { video_status: "upload_incomplete" };
    if (video.polls <= (options.videoProcessingPolls ?? 1)) return { video_status: "processing" };
    return { video_status: video.broken ? "error" : "ready" };
  }

  function videoStatus(video: Obj): Record<string, unknown> {
    if (!video.finished) return { video_status: "upload_incomplete", processing_progress: 0 };
    video.polls++;
    if (video.polls <= (options.videoProcessingPolls ?? 1))
      return { video_status: "processing", processing_progress: 50, processing_phase: { status: "in_progress" } };
    if (video.broken)
      return {
        video_status: "error",
        processing_progress: 0,
        uploading_phase: { status: "complete" },
        processing_phase: { status: "error", errors: [{ code: 1363008, message: "The video file you selected is in a format that we don't support." }] },
      };
    return { video_status: "ready", processing_progress: 100, uploading_phase: { status: "complete" }, processing_phase: { status: "complete" } };
  }

  /**
   * An ad's effective_status (Ad reference): its own DELETED or ARCHIVED, or its campaign's or ad set's (children inherit
   * them, "Manage your ad object's status"), else PAUSED, CAMPAIGN_PAUSED, ADSET_PAUSED, or its own status.
   */
  function effectiveStatus(ad: Obj): string {
    const adSet = objects.get(ad.adset_id);
    const campaign = objects.get(ad.campaign_id);
    for (const gone of ["DELETED", "ARCHIVED"]) if ([ad, adSet, campaign].some((o) => o?.status === gone)) return gone;
    if (ad.status === "PAUSED") return "PAUSED";
    if (campaign?.status === "PAUSED") return "CAMPAIGN_PAUSED";
    if (adSet?.status === "PAUSED") return "ADSET_PAUSED";
    return String(ad.status);
  }

  /**
   * The insights edge's `filtering`: a JSON array of filter objects `{field, operator, value}`; this fake answers
   * `ad.id` and `ad.effective_status` with the IN operator and a list. Without a filter on `ad.effective_status`, a level=ad report
   * leaves out ads that are DELETED or ARCHIVED ("<API_VERSION>/act_<AD_ACCOUNT_ID>/insights?level=ad does not return
   * stats for the deleted object", "Manage your ad object's status"); asking for those statuses brings their rows back.
   * A malformed filter is refused as Graph refuses parameters: code 100.
   */
  function insightsFiltering(raw: string | undefined): { field: "ad.id" | "ad.effective_status"; value: string[] }[] | Answer {
    const parsed = raw === undefined ? [] : parseJson(raw);
    if (parsed === INVALID || !Array.isArray(parsed)) return invalidParam("param filtering must be a JSON array of filter objects {field, operator, value}");
    const out: { field: "ad.id" | "ad.effective_status"; value: string[] }[] = [];
    for (const [i, f] of parsed.entries()) {
      if (!f || typeof f !== "object" || typeof f.field !== "string" || typeof f.operator !== "string" || !("value" in f))
        return invalidParam(`param filtering[${i}] must be an object with field, operator and value`);
      if (f.field !== "ad.id" && f.field !== "ad.effective_status") return invalidParam(`Filtering field '${f.field}' is not supported`);
      if (f.operator !== "IN") return invalidParam(`Filtering field '${f.field}' with operation '${f.operator}' is not supported (this fake answers IN)`);
      if (!Array.isArray(f.value) || f.value.length === 0) return invalidParam(`param filtering[${i}][value] must be a non-empty array for the IN operator`);
      const value = f.value.map(String);
      const unknown = f.field === "ad.effective_status" ? value.find((s: string) => !AD_EFFECTIVE_STATUSES.includes(s)) : undefined;
      if (unknown !== undefined)
        return invalidParam(`Filtering value '${unknown}' for field 'ad.effective_status' must be one of {${AD_EFFECTIVE_STATUSES.join(", ")}}`);
      out.push({ field: f.field, value });
    }
    if (!out.some((f) => f.field === "ad.effective_status"))
      out.push({ field: "ad.effective_status", value: AD_EFFECTIVE_STATUSES.filter((s) => s !== "DELETED" && s !== "ARCHIVED") });
    return out;
  }

  function insightsOf(accountId: string, p: Record<string, string>): Answer {
    if (p.level !== "ad") return invalidParam("This fake answers level=ad");
    const filtering = insightsFiltering(p.filtering);
    if ("status" in filtering) return filtering;
    const ads = [...objects.values()].filter(
      (o) => o.kind === "ad" && o.account_id === accountId && filtering.every((f) => f.value.includes(f.field === "ad.id" ? o.id : effectiveStatus(o))),
    );
    const rows: Record<string, any>[] = [];
    const currency = options.accounts[accountId]!.currency;
    if (p.date_preset === "maximum") {
      for (const ad of ads) {
        const days = [...(insights.get(ad.id)?.values() ?? [])];
        if (days.length)
          rows.push({ ad_id: ad.id, frequency: String(days[days.length - 1].frequency ?? 1), date_start: days[0].date, date_stop: days[days.length - 1].date });
      }
      return cursorPage(
        rows.map((r) => project(r, p.fields)),
        p,
      );
    }
    const range = parseJson(p.time_range);
    if (!range?.since || !range?.until || !/^\d{4}-\d{2}-\d{2}$/.test(range.since)) return invalidParam("time_range must be {since, until} as YYYY-MM-DD");
    if (p.time_increment !== "1") return invalidParam("This fake answers time_increment=1");
    if (p.breakdowns !== undefined) return hourlyOf(ads, range, p, currency);
    for (const ad of ads) {
      for (const [date, row] of [...(insights.get(ad.id) ?? new Map()).entries()].sort()) {
        if (date < range.since || date > range.until) continue;
        rows.push({
          account_currency: currency,
          ad_id: ad.id,
          date_start: date,
          date_stop: date,
          impressions: String(row.impressions),
          reach: String(row.reach),
          clicks: String(row.clicks),
          spend: row.spend,
          ...(row.purchases
            ? {
                actions: [{ action_type: "omni_purchase", value: String(row.purchases) }],
                action_values: [{ action_type: "omni_purchase", value: row.purchaseValue ?? "0" }],
              }
            : {}),
        });
      }
    }
    return cursorPage(
      rows.map((r) => ({ ...project(r, p.fields), date_start: r.date_start, date_stop: r.date_stop })),
      p,
    );
  }

  /** The hourly breakdowns (Insights Breakdowns reference): unique fields (reach, frequency, unique_*) are refused with them. */
  function hourlyOf(ads: Obj[], range: { since: string; until: string }, p: Record<string, string>, currency: string): Answer {
    const HOURLY = ["hourly_stats_aggregated_by_advertiser_time_zone", "hourly_stats_aggregated_by_audience_time_zone"];
    if (!HOURLY.includes(p.breakdowns!))
      return invalidParam(`breakdowns[0] must be one of the following values: ${HOURLY.join(", ")} (this fake answers the hourly ones)`);
    const fields = String(p.fields ?? "")
      .split(",")
      .map((f) => f.trim());
    const unique = fields.find((f) => f === "reach" || f === "frequency" || f.startsWith("unique_"));
    if (unique) return invalidParam(`${unique} is not supported with the hourly breakdowns`);
    const rows: Record<string, any>[] = [];
    for (const ad of ads) {
      for (const [key, row] of [...(hourlyInsights.get(ad.id) ?? new Map()).entries()].sort()) {
        const [date, hour] = key.split("|");
        if (date! < range.since || date! > range.until) continue;
        const hh = String(hour).padStart(2, "0");
        rows.push({
          account_currency: currency,
          ad_id: ad.id,
          impressions: String(row.impressions),
          clicks: String(row.clicks),
          spend: row.spend,
          ...(row.purchases
            ? {
                actions: [{ action_type: "omni_purchase", value: String(row.purchases) }],
                action_values: [{ action_type: "omni_purchase", value: row.purchaseValue ?? "0" }],
              }
            : {}),
          date_start: date,
          date_stop: date,
          [p.breakdowns!]: `${hh}:00:00 - ${hh}:59:59`,
        });
      }
    }
    return cursorPage(
      rows.map((r) => ({ ...project(r, p.fields), date_start: r.date_start, date_stop: r.date_stop, [p.breakdowns!]: r[p.breakdowns!] })),
      p,
    );
  }

  function commentView(c: Comment) {
    return { id: c.id, from: c.from, message: c.message, created_time: c.created_time, is_hidden: c.is_hidden, ...(c.parent ? { parent: c.parent } : {}) };
  }

  function nodeCall(method: string, id: string, sub: string | undefined, req: GraphRequest, auth: { token: string; pageId?: string }): Answer {
    const p = req.params;
    const obj = objects.get(id);
    const comment = comments.get(id);
    const userGrant = grants.get(auth.token);
    // Page-owned things (comments, forms, leads) answer only the Page's own token.
    const pageScoped = (pageId: string) => auth.pageId === pageId;

    if (obj?.kind === "page" && !sub && method === "GET") {
      if (!userGrant?.pages.has(id) && auth.pageId !== id) return graphError("(#10) This endpoint requires the 'pages_read_engagement' permission", 10);
      const fields = project({ id, name: obj.name, access_token: undefined }, p.fields);
      if ((p.fields ?? "").includes("access_token") && userGrant) {
        const pageToken = `page-${id}-${auth.token}`;
        pageTokens.set(pageToken, id);
        fields.access_token = pageToken;
      }
      return { status: 200, body: fields };
    }
    if (obj?.kind === "page" && sub === "leadgen_forms") {
      if (!pageScoped(id)) return graphError("(#190) This method must be called with a Page Access Token", 190);
      return cursorPage(
        [...objects.values()].filter((o) => o.kind === "leadgen_form" && o.pageId === id).map((o) => project(o, p.fields)),
        p,
      );
    }
    if (obj?.kind === "leadgen_form" && sub === "leads") {
      if (!pageScoped(obj.pageId)) return graphError("(#190) This method must be called with a Page Access Token", 190);
      const filtering = p.filtering ? parseJson(p.filtering) : [];
      if (!Array.isArray(filtering)) return invalidParam("filtering must be an array");
      // Graph lists a form's leads newest first.
      const rows = leads
        .filter((l) => l.form_id === id && matchesFiltering(l, filtering))
        .sort((a, b) => (a.created_time < b.created_time ? 1 : a.created_time > b.created_time ? -1 : a.id < b.id ? 1 : -1))
        .map((l) => project(l as any, p.fields));
      return cursorPage(rows, p);
    }
    const postComments = /^\d+_\d+$/.test(id) && sub === "comments" && !comment;
    if (postComments) {
      const pageId = id.split("_")[0]!;
      if (!pageScoped(pageId)) return graphError("(#190) This method must be called with a Page Access Token", 190);
      const all = [...comments.values()].filter((c) => c.postId === id && !c.deleted && (p.filter === "stream" || !c.parent));
      const since = p.since ? Number(p.since) : null;
      const rows = all.filter((c) => since === null || Date.parse(c.created_time) / 1000 >= since).sort((a, b) => (a.created_time < b.created_time ? -1 : 1));
      return cursorPage(
        rows.map(commentView).map((c) => project(c, p.fields)),
        p,
      );
    }
    if (comment) {
      const pageId = comment.postId.split("_")[0]!;
      if (!pageScoped(pageId)) return graphError("(#190) This method must be called with a Page Access Token", 190);
      // A deleted comment (by its author, the Page or a moderator) is gone for every method: GET, POST (hide) and DELETE alike.
      if (comment.deleted) return noSuchObject(method, id);
      if (sub === "comments" && method === "GET")
        return cursorPage(
          [...comments.values()]
            .filter((c) => c.parent?.id === id && !c.deleted)
            .map(commentView)
            .map((c) => project(c, p.fields)),
          p,
        );
      if (sub === "comments" && method === "POST") {
        if (!p.message) return invalidParam("The parameter message is required");
        const reply = makeComment(comment.postId, p.message, { id: pageId, name: objects.get(pageId)?.name ?? "Page" }, new Date(), { id });
        return { status: 200, body: { id: reply.id } };
      }
      if (method === "GET") return { status: 200, body: project(commentView(comment), p.fields) };
      if (method === "POST") {
        if (p.is_hidden === undefined) return invalidParam("Nothing to update");
        comment.is_hidden = p.is_hidden === "true";
        return { status: 200, body: { success: true } };
      }
      if (method === "DELETE") {
        comment.deleted = true;
        for (const c of comments.values()) if (c.parent?.id === id) c.deleted = true;
        return { status: 200, body: { success: true } };
      }
    }
    if (!obj || (obj.account_id && !accountOf(auth.token, obj.account_id))) return noSuchObject(method, id);
    if (obj.kind === "video" && method === "GET") {
      return { status: 200, body: project({ id, status: videoStatus(obj), picture: `https://scontent.example/v/${id}.jpg`, title: obj.title }, p.fields) };
    }
    if (method === "GET" && !sub) return { status: 200, body: project(view(obj), p.fields) };
    if (method === "POST" && !sub && ["campaign", "adset", "ad"].includes(obj.kind)) {
      if (obj.status === "DELETED")
        return graphError("Cannot edit a deleted object", 100, { error_subcode: 1487056, error_user_msg: "This object has been deleted." });
      if (p.status !== undefined && !STATUSES.includes(p.status)) return invalidParam("Param status must be one of {ACTIVE, PAUSED, DELETED, ARCHIVED}");
      if (p.name !== undefined) obj.name = p.name;
      if (p.status !== undefined) obj.status = p.status;
      if (obj.kind === "adset") {
        for (const k of ["daily_budget", "lifetime_budget"] as const) {
          if (p[k] === undefined) continue;
          if (!/^\d+$/.test(p[k]!)) return invalidParam("Budget must be an integer in the account currency's minimum unit");
          if (!obj[k]) return invalidParam(`Cannot switch budget type (${k})`, "You can't change an ad set's budget type after it has been created.");
          obj[k] = p[k];
        }
        if (p.end_time) obj.end_time = graphTime(new Date(p.end_time));
      }
      if (obj.kind === "ad" && p.creative) {
        const creative = objects.get(String(parseJson(p.creative)?.creative_id ?? ""));
        if (creative?.kind !== "adcreative") return invalidParam("Param creative must name a creative_id of this account");
        obj.creative_id = creative.id;
      }
      return { status: 200, body: { success: true } };
    }
    return invalidParam("Unsupported request");
  }

  function makeComment(postId: string, message: string, from: { id: string; name: string }, at: Date, parent?: { id: string }): Comment {
    const c: Comment = {
      id: `${postId.split("_")[1]}_${nextId()}`,
      postId,
      from,
      message,
      created_time: graphTime(at),
      is_hidden: false,
      ...(parent ? { parent } : {}),
    };
    comments.set(c.id, c);
    return c;
  }

  /** Meta's Login dialog, already consented: back to redirect_uri with `code` and `state` (or a refusal without an app or grant). */
  function consent(params: Record<string, string>, res: http.ServerResponse): void {
    const code = [options.oauth ?? []].flat()[0]?.code;
    if (!params.redirect_uri || !code || (options.appId && params.client_id !== options.appId)) {
      res.writeHead(400, { "Content-Type": "text/plain" });
      res.end("Invalid App ID or redirect_uri");
      return;
    }
    const back = new URL(params.redirect_uri);
    back.searchParams.set("code", code);
    if (params.state) back.searchParams.set("state", params.state);
    res.writeHead(302, { Location: back.toString() });
    res.end();
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const url = new URL(req.url ?? "/", "http://fake");
      const params: Record<string, string> = Object.fromEntries(url.searchParams);
      if (url.pathname === "/dialog/oauth") return consent(params, res);
      let file: Buffer | undefined;
      const type = String(req.headers["content-type"] ?? "");
      const raw = Buffer.concat(chunks);
      if (type.startsWith("application/x-www-form-urlencoded")) Object.assign(params, Object.fromEntries(new URLSearchParams(raw.toString("utf8"))));
      else if (type.startsWith("multipart/form-data")) {
        const form = await new Response(raw, { headers: { "content-type": type } }).formData();
        for (const [k, value] of form.entries()) {
          if (typeof value === "string") params[k] = value;
          else if (k === "video_file_chunk") file = Buffer.from(await value.arrayBuffer());
        }
      }
      const request: GraphRequest = { method: req.method ?? "GET", path: url.pathname, params, ...(file ? { file } : {}), at: Date.now() };
      requests.push(request);
      const held = holds.findIndex((h) => h.pattern.test(url.pathname) && (!h.params || h.params(params)));
      if (held >= 0) {
        const [hold] = holds.splice(held, 1);
        hold!.arrive();
        await hold!.released;
      }
      let answer = handle(request);
      const drop = lost.findIndex((p) => p.test(url.pathname));
      if (drop >= 0) {
        lost.splice(drop, 1);
        answer = {
          status: 500,
          body: {
            error: { message: "An unexpected error has occurred. Please retry your request later.", type: "OAuthException", code: 2, is_transient: true },
          },
        };
      }
      res.writeHead(answer.status, { "Content-Type": "application/json", ...(answer.headers ?? {}) });
      res.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    authorizeUrl: `http://127.0.0.1:${port}/dialog/oauth`,
    requests,
    objects,
    comments,
    videoCounts,
    grant: (token, accountIds, pageIds = []) => grants.set(token, { accounts: new Set(accountIds), pages: new Set(pageIds) }),
    revoke: (token) => {
      grants.delete(token);
      for (const [t] of pageTokens) if (t.endsWith(`-${token}`)) pageTokens.delete(t);
    },
    failNext: (pattern, error, opts = {}) =>
      failures.push({
        pattern,
        times: opts.times ?? 1,
        answer: { status: opts.status ?? 400, body: { error: { fbtrace_id: "AfakeTrace", ...error } }, headers: opts.headers },
      }),
    loseNextAnswer: (pattern) => lost.push(pattern),
    holdNext: (pattern, params) => {
      let arrive!: () => void;
      let release!: () => void;
      const arrived = new Promise<void>((r) => (arrive = r));
      const released = new Promise<void>((r) => (release = r));
      holds.push({ pattern, params, arrive, released });
      return { arrived, release };
    },
    setInsights: (adId, date, row) => {
      if (!insights.has(adId)) insights.set(adId, new Map());
      insights.get(adId)!.set(date, { date, ...row });
    },
    setHourlyInsights: (adId, date, hour, row) => {
      if (!hourlyInsights.has(adId)) hourlyInsights.set(adId, new Map());
      hourlyInsights.get(adId)!.set(`${date}|${hour}`, row);
    },
    comment: (adId, message, opts = {}) => {
      const ad = objects.get(adId);
      const post = ad ? objects.get(ad.creative_id)?.effective_object_story_id : undefined;
      if (!post) throw new Error(`fake Meta: ad ${adId} has no post`);
      return makeComment(post, message, { id: nextId(), name: opts.author ?? "Test Person" }, opts.at ?? new Date());
    },
    addLeadForm: (pageId, name, questionKeys) => {
      const formId = nextId();
      objects.set(formId, {
        id: formId,
        kind: "leadgen_form",
        pageId,
        name,
        status: "ACTIVE",
        questions: questionKeys.map((key) => ({ key, type: "CUSTOM" })),
      });
      return formId;
    },
    addLead: (formId, lead) => {
      const l: Lead = {
        id: nextId(),
        form_id: formId,
        ad_id: lead.adId ?? null,
        created_time: graphTime(lead.at),
        field_data: Object.entries(lead.fields).map(([name, value]) => ({ name, values: [value] })),
      };
      leads.push(l);
      return l;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
