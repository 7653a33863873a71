import { PlatformError } from "../types";
import { apiUrl, businessApiError } from "./platform-b/client";
import { callPlatform, type LiveAccountReadout } from "./wire";

/**
 * platform_b speaks TikTok's API for Business (lib/platforms/live/platform-b/): reading the
 * advertiser when connecting; the rest of the contract lives in that folder.
 */
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
