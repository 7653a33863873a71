import { z } from "zod";
import { getConfig } from "@/lib/services";
import { PlatformError } from "../../types";
import { callPlatform } from "../wire";

/**
 * One call to TikTok's API for Business: `{PLATFORM_B_API_URL}/open_api/v1.3/<path>`, the token in
 * the `Access-Token` header. Every answer is HTTP 200 with `{ code, message, request_id, data }`;
 * code 0 is success, any other code is a refusal classified by `businessApiError`.
 */

const envelope = z.object({
  code: z.coerce.number(),
  message: z.string().optional().default(""),
  request_id: z.string().optional(),
  data: z.unknown().optional(),
});

/**
 * TikTok's return codes as the spec's tool codes. The numbers are TikTok's own table as its official SDK
 * ships it (tiktok/tiktok-business-api-sdk, python_sdk/business_api_client/tiktok_business/tiktok_code.py,
 * "NumericErrorCodes"); which of them means "authorize again" is our reading of their names:
 * - the token or the grant is refused: 40001 PERMISSION_ERROR (no access to the advertiser), 40101
 *   INVALID_PARTNER, 40102 ACCESS_TOKEN_EXPIRE, 40103 REFRESH_TOKEN_EXPIRE, 40104 EMPTY_ACCESS_TOKEN, 40105
 *   INVALID_ACCESS_TOKEN, 40106 INVALID_CORE_USER, 40107 INVALID_REFRESH_TOKEN, 40110 AUTH_CODE_ERROR,
 *   40113 APP_FORBIDDEN, 40114 ADVERTISER_LOGOUT, 40130 SCOPE_NOT_AUTHORIZED -> not_connected (needs_reconnect);
 * - throttled: 40100 REQUEST_TOO_FREQUENT, 40132 REQUEST_FREQUENCY_LIMITED, 40016 BIZ_FC_ERROR (frequency
 *   control), 61000 TOO_MANY_REQUESTS_BL -> upstream_busy;
 * - TikTok is still working or busy: 40201 TASK_NOT_READY, 40202 WRITE_CONFLICT, 40901 VIDEO_TRANSCODING,
 *   50000-59999 (system, RPC, database, storage errors), 60001 MAINTENANCE -> upstream_error, retryable;
 * - every other 40000-49999 (40002 PARAM_ERROR, 40007 NOT_EXIST, 409xx file errors...) is the request's
 *   to fix -> invalid_input with TikTok's message and code;
 * - anything else (20001 PARTIAL_OK, 70001 INVALID_BIZ_AUTH_TYPE, unknown codes) -> upstream_error, not retried.
 */
export const AUTH_CODES = new Set([40001, 40101, 40102, 40103, 40104, 40105, 40106, 40107, 40110, 40113, 40114, 40130]);
export const RATE_LIMIT_CODES = new Set([40016, 40100, 40132, 61000]);
const RETRYABLE_CODES = new Set([40201, 40202, 40901, 60001]);

export function isAuthCode(code: number): boolean {
  return AUTH_CODES.has(code);
}

/** TikTok's refusal code carried in a PlatformError's message ("... (code 40911)"), or null. */
export function refusalCode(err: unknown): number | null {
  if (!(err instanceof PlatformError)) return null;
  const match = err.message.match(/\(code (\d+)\)$/);
  return match ? Number(match[1]) : null;
}

export function businessApiError(status: number, body: any, what = "the call"): PlatformError {
  const code = Number(body?.code);
  const known = Number.isFinite(code);
  const message = `platform_b refused ${what}: ${body?.message || `HTTP ${status}`}${known ? ` (code ${code})` : ""}`;
  if ((known && isAuthCode(code)) || status === 401) return new PlatformError("not_connected", message, { retryable: false, authRefused: true });
  if ((known && RATE_LIMIT_CODES.has(code)) || status === 429)
    return new PlatformError("upstream_busy", message, {
      retryable: true,
      retryAfterSeconds: getConfig().platforms.platformB.busyWaitSeconds,
    });
  if ((known && (RETRYABLE_CODES.has(code) || (code >= 50000 && code < 60000))) || status >= 500)
    return new PlatformError("upstream_error", message, { retryable: true });
  if (known && code >= 40000 && code < 50000) return new PlatformError("invalid_input", message, { retryable: false });
  return new PlatformError("upstream_error", message, { retryable: false });
}

export function apiUrl(path: string, params: Record<string, unknown> = {}): string {
  const url = new URL(`${getConfig().platforms.platformB.apiUrl}/open_api/v1.3/${path}`);
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined || v === null) continue;
    // The API takes lists and objects in query strings as JSON (advertiser_ids=["1"], filtering={...}).
    url.searchParams.set(k, typeof v === "string" ? v : JSON.stringify(v));
  }
  return url.toString();
}

async function send(path: string, init: RequestInit, token: string, what: string): Promise<unknown> {
  const url = init.method === "GET" ? path : apiUrl(path);
  const { status, body } = await callPlatform("platform_b", url, { ...init, headers: { ...(init.headers as Record<string, string>), "Access-Token": token } });
  const parsed = envelope.safeParse(body);
  if (status !== 200 || !parsed.success) throw businessApiError(status, body, what);
  if (parsed.data.code !== 0) throw businessApiError(status, parsed.data, what);
  return parsed.data.data;
}

/** GET with query parameters (lists and objects JSON-encoded); answers `data` checked against `schema`. */
export async function getData<T>(token: string, path: string, params: Record<string, unknown>, schema: z.ZodType<T>, what: string): Promise<T> {
  return checked(await send(apiUrl(path, params), { method: "GET" }, token, what), schema, what);
}

/** POST with a JSON body. */
export async function postJson<T>(token: string, path: string, body: Record<string, unknown>, schema: z.ZodType<T>, what: string): Promise<T> {
  const data = await send(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) }, token, what);
  return checked(data, schema, what);
}

/** POST multipart/form-data (file uploads). */
export async function postForm<T>(token: string, path: string, form: FormData, schema: z.ZodType<T>, what: string): Promise<T> {
  return checked(await send(path, { method: "POST", body: form }, token, what), schema, what);
}

function checked<T>(data: unknown, schema: z.ZodType<T>, what: string): T {
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    throw new PlatformError(
      "upstream_error",
      `platform_b answered ${what} in an unexpected shape: ${parsed.error.issues[0]?.path.join(".")} ${parsed.error.issues[0]?.message}`,
      {
        retryable: false,
      },
    );
  }
  return parsed.data;
}

/** TikTok's ids are int64: accepted as numbers or strings, kept as strings. */
export const id = z.union([z.string(), z.number()]).transform((v) => String(v));

export const pageInfo = z.object({
  page: z.coerce.number(),
  page_size: z.coerce.number().optional(),
  total_number: z.coerce.number().optional(),
  total_page: z.coerce.number(),
});

/** Reads every page of a list endpoint (`page_info` paging), up to `maxPages`. */
export async function allPages<T>(fetchPage: (page: number) => Promise<{ list: T[]; page_info?: z.infer<typeof pageInfo> }>, maxPages = 50): Promise<T[]> {
  const out: T[] = [];
  for (let page = 1; page <= maxPages; page++) {
    const { list, page_info } = await fetchPage(page);
    out.push(...list);
    if (!page_info || page >= page_info.total_page) break;
  }
  return out;
}
