import { Secret, TOTP } from "otpauth";

// RFC 6238 TOTP: HMAC-SHA1, 6 digits, 30-second steps (what every authenticator app expects),
// computed by otpauth; this module fixes the parameters and adds the step a code belongs to.
const STEP_SECONDS = 30;
const DIGITS = 6;
const PARAMETERS = { algorithm: "SHA1", digits: DIGITS, period: STEP_SECONDS } as const;

export function base32Encode(bytes: Buffer): string {
  return new Secret({ buffer: new Uint8Array(bytes).buffer }).base32;
}

/** Decodes base32, tolerating the spaces, dashes and padding people type; throws on any other foreign character. */
export function base32Decode(text: string): Buffer {
  return Buffer.from(Secret.fromBase32(text.replace(/[\s=-]/g, "")).bytes);
}

/** A new random TOTP secret (160 bits), base32. */
export function generateTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The code for a time step (default: now). */
export function totpCode(secret: string, atMs = Date.now()): string {
  return TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: atMs, ...PARAMETERS });
}

/** Whether the code matches the current step or one step either side (clock drift). */
export function verifyTotp(secret: string, code: string, atMs = Date.now()): boolean {
  return matchingTotpStep(secret, code, atMs) !== null;
}

/** The time step the code belongs to (current or one either side), or null; callers use it to refuse replays. */
export function matchingTotpStep(secret: string, code: string, atMs = Date.now()): number | null {
  const candidate = code.replace(/\s/g, "");
  if (!/^\d{6}$/.test(candidate)) return null;
  const drift = TOTP.validate({ token: candidate, secret: Secret.fromBase32(secret), timestamp: atMs, window: 1, ...PARAMETERS });
  return drift === null ? null : TOTP.counter({ period: STEP_SECONDS, timestamp: atMs }) + drift;
}

/** The otpauth:// URI authenticator apps read from the QR code. */
export function otpauthUri(secret: string, accountEmail: string, issuer = "Adloom"): string {
  const label = encodeURIComponent(`${issuer}:${accountEmail}`);
  return `otpauth://totp/${label}?secret=${secret}&issuer=${encodeURIComponent(issuer)}&algorithm=SHA1&digits=${DIGITS}&period=${STEP_SECONDS}`;
}
