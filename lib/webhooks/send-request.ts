import { postPinned, type PostOptions, type PostOutcome } from "./http-post";
import { signatureHeaders } from "./sign";
import { resolveDeliverableUrl, WebhookUrlError, type UrlPolicy } from "./url-policy";

export const USER_AGENT = "Adloom-Webhooks/1.0";

export interface SignedRequest {
  url: string;
  secret: string;
  /** The event envelope exactly as stored: the bytes that are signed and sent. */
  body: string;
  eventId: string;
  eventType: string;
  deliveryId: string;
}

export interface SentRequest {
  /** The request headers as sent (logged with the delivery). */
  headers: Record<string, string>;
  /** The address connected to; null when the URL was refused before connecting. */
  remoteAddress: string | null;
  outcome: PostOutcome;
}

/**
 * One signed delivery attempt: re-checks the URL against the policy after resolving it, signs
 * the body with a fresh timestamp, and POSTs it to the checked address. Never throws for
 * network or policy failures; they come back as the outcome's error.
 */
export async function sendSignedRequest(request: SignedRequest, policy: UrlPolicy, options: PostOptions = {}): Promise<SentRequest> {
  const headers: Record<string, string> = {
    "Content-Type": "application/json",
    "User-Agent": USER_AGENT,
    "service-event-id": request.eventId,
    "service-event-type": request.eventType,
    "service-delivery-id": request.deliveryId,
    // service-signature (the spec's) and the Standard Webhooks trio; webhook-id is the event id, kept across retries.
    ...signatureHeaders(request.secret, request.eventId, request.body),
  };
  const started = performance.now();
  try {
    const target = await resolveDeliverableUrl(request.url, policy);
    return { headers, remoteAddress: target.address, outcome: await postPinned(target, headers, request.body, options) };
  } catch (err) {
    if (!(err instanceof WebhookUrlError)) throw err;
    return {
      headers,
      remoteAddress: null,
      outcome: { status: null, responseExcerpt: null, durationMs: Math.round(performance.now() - started), error: `Not sent: ${err.message}` },
    };
  }
}

/** Any 2xx is a success; redirects and everything else are failures. */
export function isSuccess(outcome: PostOutcome): boolean {
  return outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
}
