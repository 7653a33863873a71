import { createHash, randomBytes } from "node:crypto";

/**
 * Prefixes of OAuth secrets: recognisable by secret scanners, and never `adl_`, so an API key
 * and an OAuth token are told apart before any lookup.
 */
export const ACCESS_TOKEN_PREFIX = "adlat_";
export const REFRESH_TOKEN_PREFIX = "adlrt_";
export const CODE_PREFIX = "adlac_";

/** A random secret with the prefix (256 bits, base64url). */
export function newSecret(prefix: string): string {
  return prefix + randomBytes(32).toString("base64url");
}

export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

/** PKCE S256 (RFC 7636 §4.2): BASE64URL(SHA256(ASCII(code_verifier))). */
export function s256(verifier: string): string {
  return createHash("sha256").update(verifier, "ascii").digest("base64url");
}

/** RFC 7636 §4.1: 43 to 128 unreserved characters. */
export const isValidVerifier = (v: string) => /^[A-Za-z0-9\-._~]{43,128}$/.test(v);
