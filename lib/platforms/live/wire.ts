import { PlatformError } from "../types";

/** What a live platform says about an ad account when it is read with a token. */
export interface LiveAccountReadout {
  externalAccountId: string;
  name: string;
  currency: string;
  timeZone: string;
  status: "active" | "disabled" | "pending_settlement";
}

const TIMEOUT_MS = 30_000;

/**
 * One HTTP call to a live platform, answered as parsed JSON with its status. A network failure or
 * timeout is a retryable upstream_error; the caller classifies the platform's own answers.
 */
export async function callPlatform(
  platformName: string,
  url: string,
  init: RequestInit = {},
  timeoutMs = TIMEOUT_MS,
): Promise<{ status: number; body: any; headers: Headers }> {
  let res: Response;
  try {
    res = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  } catch (err) {
    throw new PlatformError("upstream_error", `${platformName} could not be reached (${(err as Error).message})`, { retryable: true });
  }
  const text = await res.text();
  let body: any;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  if (body === undefined && res.ok)
    throw new PlatformError("upstream_error", `${platformName} answered HTTP ${res.status} without a JSON body`, { retryable: true });
  return { status: res.status, body, headers: res.headers };
}
