import { createHmac, timingSafeEqual } from "node:crypto";
import { getAuthSecret } from "@/lib/session/secret";

/** Guest media URLs live 15 minutes: long enough to watch a video, short enough that a leaked URL dies soon. */
export const GUEST_MEDIA_TTL_MS = 15 * 60_000;

function hmac(purpose: string, payload: string): string {
  return createHmac("sha256", getAuthSecret()).update(`${purpose}\n${payload}`).digest("base64url");
}

function sameSignature(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** `thumbnail`: the 960 px WebP (a video's poster frame), what the guest page shows instead of the original. */
export type GuestRendition = "original" | "preview" | "download" | "thumbnail";

const mediaPayload = (linkId: string, creativeId: string, rendition: GuestRendition, exp: number) => [linkId, creativeId, rendition, exp].join("|");

/** A short-lived media URL bound to the link, the creative and the rendition. */
export function signedGuestMediaUrl(token: string, linkId: string, creativeId: string, rendition: GuestRendition, now = Date.now()): string {
  // Rounded to the minute so a page rendered twice in a minute reuses the browser's cached media.
  const exp = Math.ceil((now + GUEST_MEDIA_TTL_MS) / 60_000) * 60;
  const sig = hmac("guest-media", mediaPayload(linkId, creativeId, rendition, exp));
  return `/api/review/${token}/media/${creativeId}?r=${rendition}&exp=${exp}&sig=${sig}`;
}

/** Whether a guest media URL's signature and expiry hold for this link. */
export function verifyGuestMedia(
  linkId: string,
  creativeId: string,
  query: { r?: string; exp?: string; sig?: string },
  now = Date.now(),
): GuestRendition | null {
  const rendition = query.r as GuestRendition;
  if (!["original", "preview", "download", "thumbnail"].includes(rendition)) return null;
  const exp = Number(query.exp);
  if (!Number.isInteger(exp) || exp * 1000 < now || !query.sig) return null;
  return sameSignature(hmac("guest-media", mediaPayload(linkId, creativeId, rendition, exp)), query.sig) ? rendition : null;
}

/** Proof, kept in a cookie, that this browser gave the link's password (void once the password changes). */
export function guestPassValue(linkId: string, passwordHash: string, now = Date.now()): string {
  const exp = Math.floor(now / 1000) + 7 * 86_400;
  return `${exp}.${hmac("guest-pass", `${linkId}|${passwordHash}|${exp}`)}`;
}

export function verifyGuestPass(linkId: string, passwordHash: string, value: string | undefined, now = Date.now()): boolean {
  if (!value) return false;
  const [expText, sig] = value.split(".");
  const exp = Number(expText);
  if (!Number.isInteger(exp) || exp * 1000 < now || !sig) return false;
  return sameSignature(hmac("guest-pass", `${linkId}|${passwordHash}|${exp}`), sig);
}

/** The cookie that carries a link's pass (one per link, so passes never mix). */
export const guestPassCookie = (linkId: string) => `adloom_review_${linkId}`;
