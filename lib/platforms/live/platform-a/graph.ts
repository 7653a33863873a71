import { createHmac } from "node:crypto";
import { getConfig } from "@/lib/services";
import { PlatformError, type PlatformErrorCode } from "../../types";
import { callPlatform } from "../wire";

/**
 * The one place platform_a's wire lives: Meta's Graph API at `{PLATFORM_A_API_URL}/{PLATFORM_A_API_VERSION}/...`,
 * written on fetch (docs/decisions.md says why not facebook-nodejs-business-sdk). Every call carries
 * the token as `access_token` and, with PLATFORM_A_APP_SECRET set, `appsecret_proof` = HMAC-SHA256 of
 * the token keyed by the app secret (hex). Writes are form-encoded POSTs whose object values are JSON
 * strings, as the Marketing API reference shows them; answers and errors are classified here.
 */

const TIMEOUT_MS = 60_000;

export type GraphParams = Record<string, string | number | boolean | object | null | undefined>;

export function appSecretProof(token: string): string | null {
  const { appSecret } = getConfig().platforms.platformA;
  return appSecret ? createHmac("sha256", appSecret).update(token).digest("hex") : null;
}

export function graphUrl(path: string, token: string | null, params: GraphParams = {}): string {
  const { apiUrl, apiVersion } = getConfig().platforms.platformA;
  const url = new URL(`${apiUrl}/${apiVersion}/${path.replace(/^\//, "")}`);
  for (const [k, v] of Object.entries(encodeParams(params))) url.searchParams.set(k, v);
  if (token) {
    url.searchParams.set("access_token", token);
    const proof = appSecretProof(token);
    if (proof) url.searchParams.set("appsecret_proof", proof);
  }
  return url.toString();
}

/** Graph parameters as strings: objects and arrays as JSON, absent values left out. */
export function encodeParams(params: GraphParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined || v === null) continue;
    out[k] = typeof v === "object" ? JSON.stringify(v) : String(v);
  }
  return out;
}

export interface GraphAnswer {
  status: number;
  body: any;
  headers: Headers;
}

async function send(url: string, init: RequestInit): Promise<GraphAnswer> {
  const answer = await callPlatform("platform_a", url, init, TIMEOUT_MS);
  // Graph errors are JSON too: an answer without a body is a failure whatever its status.
  if (answer.body === undefined)
    throw new PlatformError("upstream_error", `platform_a answered HTTP ${answer.status} without a JSON body`, { retryable: true });
  return answer;
}

function answered(answer: GraphAnswer): any {
  if (answer.status !== 200 || answer.body?.error) throw graphError(answer.status, answer.body, answer.headers);
  return answer.body;
}

export async function graphGet(path: string, token: string, params: GraphParams = {}): Promise<any> {
  return answered(await send(graphUrl(path, token, params), { method: "GET" }));
}

export async function graphPost(path: string, token: string, params: GraphParams = {}): Promise<any> {
  return answered(
    await send(graphUrl(path, token), {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(encodeParams(params)).toString(),
    }),
  );
}

/** A multipart POST (a video chunk): the fields plus one file part. */
export async function graphPostFile(
  path: string,
  token: string,
  params: GraphParams,
  file: { field: string; name: string; contentType: string; bytes: Buffer },
): Promise<any> {
  const form = new FormData();
  for (const [k, v] of Object.entries(encodeParams(params))) form.set(k, v);
  form.set(file.field, new Blob([new Uint8Array(file.bytes)], { type: file.contentType }), file.name);
  return answered(await send(graphUrl(path, token), { method: "POST", body: form }));
}

export async function graphDelete(path: string, token: string): Promise<any> {
  return answered(await send(graphUrl(path, token), { method: "DELETE" }));
}

/**
 * Every item of a list edge, following `paging.cursors.after` while `paging.next` is present, up to `max`.
 * Graph pages hold `limit` items (the edge's maximum varies; 100 is safe everywhere used here).
 */
export async function graphList(path: string, token: string, params: GraphParams = {}, max = 10_000): Promise<any[]> {
  const items: any[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await graphGet(path, token, { limit: Math.min(100, max - items.length), ...params, ...(after ? { after } : {}) });
    items.push(...(page.data ?? []));
    after = page.paging?.cursors?.after;
    if (!page.paging?.next || !after || items.length >= max) return items.slice(0, max);
  }
}

export interface BatchCall {
  method: "GET" | "POST" | "DELETE";
  /** Relative to the version: `act_1/ads?fields=id`. */
  relativeUrl: string;
  /** Form parameters of a POST. */
  body?: GraphParams;
  /** Names the call so a later one can use its answer: `{result=<name>:$.id}`. */
  name?: string;
}

/**
 * Up to 50 calls in one HTTP request (POST / with `batch`). Each answer is classified like a single
 * call's; the first refused one is thrown. A call that depends on a refused one answers null.
 */
export async function graphBatch(token: string, calls: BatchCall[]): Promise<any[]> {
  const batch = calls.map((c) => ({
    method: c.method,
    relative_url: c.relativeUrl,
    // Meta resolves `{result=<name>:$.<field>}` in the raw body, so those references stay unescaped.
    ...(c.body ? { body: new URLSearchParams(encodeParams(c.body)).toString().replace(/%7Bresult%3D([\w-]+)%3A%24\.(\w+)%7D/g, "{result=$1:$$.$2}") } : {}),
    ...(c.name ? { name: c.name } : {}),
  }));
  const answers = await graphPost("", token, { batch, include_headers: false });
  if (!Array.isArray(answers)) throw new PlatformError("upstream_error", "platform_a answered a batch without a list", { retryable: true });
  return answers.map((a: any) => {
    if (a === null) return null;
    let body: any;
    try {
      body = JSON.parse(a.body ?? "null");
    } catch {
      body = null;
    }
    const headers = new Headers((a.headers ?? []).map((h: any) => [String(h.name), String(h.value)]));
    if (a.code !== 200 || body?.error) throw graphError(Number(a.code), body, headers);
    return body;
  });
}

/**
 * Seconds to wait before calling again, from Meta's usage headers: `x-business-use-case-usage`
 * (`estimated_time_to_regain_access`, minutes, per business and use case) and `x-ad-account-usage`
 * (`reset_time_duration`, seconds). At least 1; 60 when neither says.
 */
export function retryAfterSeconds(headers: Headers | undefined): number {
  let minutes = 0;
  let seconds = 0;
  try {
    const buc = JSON.parse(headers?.get("x-business-use-case-usage") ?? "null");
    for (const uses of Object.values(buc ?? {}) as any[])
      for (const use of uses ?? []) minutes = Math.max(minutes, Number(use?.estimated_time_to_regain_access) || 0);
  } catch {
    /* an unreadable header says nothing */
  }
  try {
    seconds = Number(JSON.parse(headers?.get("x-ad-account-usage") ?? "null")?.reset_time_duration) || 0;
  } catch {
    /* idem */
  }
  const wait = Math.max(minutes * 60, seconds);
  return wait > 0 ? Math.ceil(wait) : 60;
}

const RATE_LIMIT_CODES = new Set([4, 17, 32, 613]);
const isRateLimit = (code: number) => RATE_LIMIT_CODES.has(code) || (code >= 80000 && code <= 80014);
const isAuthRefusal = (code: number) => code === 190 || code === 102 || code === 10 || (code >= 200 && code <= 299);
// 100 invalid parameter; 368 policy ("deemed abusive or otherwise disallowed"); 1487xxx/2446xxx come as subcodes of those.
const isRefusal = (code: number) => code === 100 || code === 368;

/**
 * A Graph error (`{error: {message, type, code, error_subcode, is_transient, error_user_title, error_user_msg, fbtrace_id}}`)
 * as a tool code: the token refused -> not_connected (the account then needs reconnecting); rate limits ->
 * upstream_busy with the wait the usage headers give; invalid parameters and policy refusals -> terminal
 * invalid_input with Meta's own user-facing message; anything else -> upstream_error (retryable when
 * Meta says transient, or a 5xx).
 */
export function graphError(status: number, body: any, headers?: Headers): GraphCallError {
  const error = body?.error ?? {};
  const code = Number(error.code);
  const subcode = Number(error.error_subcode);
  const explained = error.error_user_msg ? `${error.error_user_title ? `${error.error_user_title}: ` : ""}${error.error_user_msg}` : error.message;
  const ids = [Number.isFinite(code) ? `code ${code}` : null, Number.isFinite(subcode) ? `subcode ${subcode}` : null].filter(Boolean).join(", ");
  const message = `platform_a refused the call: ${explained ?? `HTTP ${status}`}${ids ? ` (${ids})` : ""}`;
  const refused = (code: PlatformErrorCode, options: ConstructorParameters<typeof PlatformError>[2]) => new GraphCallError(code, message, options, error);
  if (isAuthRefusal(code) || status === 401) return refused("not_connected", { retryable: false, authRefused: true });
  if (isRateLimit(code) || status === 429) return refused("upstream_busy", { retryable: true, retryAfterSeconds: retryAfterSeconds(headers) });
  if (isRefusal(code) || status === 404) return refused("invalid_input", { retryable: false });
  return refused("upstream_error", { retryable: true });
}

/** A refused Graph call that keeps Meta's error object: callers act on its code, subcode and error_data (a video transfer's expected range). */
export class GraphCallError extends PlatformError {
  readonly graphCode: number | null;
  readonly subcode: number | null;
  readonly errorData: unknown;
  readonly graphMessage: string;

  constructor(code: PlatformErrorCode, message: string, options: ConstructorParameters<typeof PlatformError>[2], error: any) {
    super(code, message, options);
    const graphCode = Number(error?.code);
    this.graphCode = Number.isFinite(graphCode) ? graphCode : null;
    const subcode = Number(error?.error_subcode);
    this.subcode = Number.isFinite(subcode) ? subcode : null;
    this.errorData = error?.error_data ?? null;
    this.graphMessage = String(error?.message ?? "");
  }
}

/**
 * Graph's answer for an object that is not there: code 100 with subcode 33 ("Unsupported <method> request. Object
 * with ID '…' does not exist, cannot be loaded due to missing permissions, or does not support this operation").
 * For a comment on the Page's own ad post, whose Page token may load and moderate it, that means it is gone.
 */
export const isMissingObject = (err: unknown): err is GraphCallError => err instanceof GraphCallError && err.graphCode === 100 && err.subcode === 33;
