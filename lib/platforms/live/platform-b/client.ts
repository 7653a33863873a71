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
 * TikTok's return codes (Appendix - Return Codes), as the spec's tool codes:
 * - 40001 no permission on the advertiser, 40101-40199 the token or app authorization (40102 expired,
 *   40104 missing, 40105 invalid or revoked, 40110 invalid auth_code...): the token is refused.
 * - 40100 requests made too frequently (QPS/QPM/QPD), 40016 and 42900 throttling: rate limited.
 * - other 40000-49999: the request itself is refused (40002 parameter errors): invalid_input with TikTok's message.
 * - 50000 and up (system errors, busy): upstream_error, worth retrying.
 */
export const RATE_LIMIT_CODES = new Set([40016, 40100, 42900]);

export function isAuthCode(code: number): boolean {
  return code === 40001 || (code >= 40101 && code <= 40199);
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
  if ((known && code >= 50000) || status >= 500) return new PlatformError("upstream_error", message, { retryable: true });
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
