import { getConfig } from "@/lib/services";
import { PlatformError } from "../types";
import { callPlatform, type LiveAccountReadout } from "./wire";

/**
 * platform_b speaks TikTok's API for Business: `{PLATFORM_B_API_URL}/open_api/v1.3/...`, the token
 * in the `Access-Token` header. Answers are HTTP 200 with `{ code, message, request_id, data }`:
 * code 0 is success, 40001 and 40100-40199 refuse the token or its authorization.
 */
function apiUrl(path: string, params: Record<string, string> = {}): string {
  const url = new URL(`${getConfig().platforms.platformB.apiUrl}/open_api/v1.3/${path}`);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url.toString();
}

function businessApiError(status: number, body: any): PlatformError {
  const code = Number(body?.code);
  const message = `platform_b refused the call: ${body?.message ?? `HTTP ${status}`}${Number.isFinite(code) ? ` (code ${code})` : ""}`;
  if (code === 40001 || (code >= 40100 && code <= 40199) || status === 401)
    return new PlatformError("not_connected", message, { retryable: false, authRefused: true });
  if (code === 42900 || code === 40016 || status === 429) return new PlatformError("upstream_busy", message, { retryable: true, retryAfterSeconds: 60 });
  if (code >= 50000 || status >= 500) return new PlatformError("upstream_error", message, { retryable: true });
  return new PlatformError(code >= 40000 && code < 50000 ? "invalid_input" : "upstream_error", message, { retryable: false });
}

function advertiserStatus(value: unknown): LiveAccountReadout["status"] {
  if (value === "STATUS_ENABLE") return "active";
  if (typeof value === "string" && /PENDING|WAIT|UNAUDITED|CONTRACT/.test(value)) return "pending_settlement";
  return "disabled";
}

/** Reads the advertiser with the token: GET /advertiser/info/?advertiser_ids=["<id>"]. */
export async function readPlatformBAdvertiser(advertiserId: string, token: string): Promise<LiveAccountReadout> {
  const { status, body } = await callPlatform(
    "platform_b",
    apiUrl("advertiser/info/", {
      advertiser_ids: JSON.stringify([advertiserId]),
      fields: JSON.stringify(["advertiser_id", "name", "currency", "timezone", "display_timezone", "status"]),
    }),
    { headers: { "Access-Token": token } },
  );
  if (status !== 200 || Number(body?.code) !== 0) throw businessApiError(status, body);
  const advertiser = (body?.data?.list ?? []).find((a: any) => String(a?.advertiser_id) === advertiserId);
  if (!advertiser) throw new PlatformError("invalid_input", `platform_b has no advertiser ${advertiserId} this token may read`, { retryable: false });
  const timeZone = advertiser.display_timezone || advertiser.timezone;
  if (typeof advertiser.currency !== "string" || typeof timeZone !== "string") {
    throw new PlatformError("upstream_error", "platform_b answered the advertiser read without currency or timezone", { retryable: false });
  }
  return {
    externalAccountId: advertiserId,
    name: String(advertiser.name ?? advertiserId),
    currency: advertiser.currency,
    timeZone,
    status: advertiserStatus(advertiser.status),
  };
}
