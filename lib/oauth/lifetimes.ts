import { getConfig } from "@/lib/services";

/** How long codes and tokens live; short access tokens, refresh tokens rotated on every use. */
export function lifetimes(): { codeMs: number; accessMs: number; refreshMs: number } {
  const { oauthServer } = getConfig();
  return { codeMs: oauthServer.codeTtlSeconds * 1000, accessMs: oauthServer.accessTokenTtlSeconds * 1000, refreshMs: 30 * 86_400_000 };
}
