/**
 * Whether a Google or GitHub sign-in proves its email address. An account is matched to an Adloom user by address
 * alone, so an address the provider has not verified must not be taken: anyone can put any address on a new GitHub
 * account before confirming it.
 */

/**
 * The address an OAuth profile names and whether the provider verified it: `email_verified`, Google's OpenID claim, and
 * GitHub's as githubProfile sets it. Anything but true is unverified.
 */
export function profileEmail(profile: { email?: unknown; email_verified?: unknown } | undefined): { email: string; verified: boolean } | null {
  return typeof profile?.email === "string" && profile.email ? { email: profile.email.toLowerCase(), verified: profile.email_verified === true } : null;
}

export interface GitHubEmail {
  email: string;
  primary: boolean;
  verified: boolean;
}

/**
 * The GitHub account's primary address and whether GitHub verified it, from `GET /user/emails` (scope `user:email`,
 * which the provider asks for). The public profile email alone does not say whether it is verified, and Auth.js falls
 * back to the primary address without looking at `verified`.
 */
export function githubPrimaryEmail(emails: unknown): { email: string; verified: boolean } | null {
  if (!Array.isArray(emails)) return null;
  const primary = (emails as Partial<GitHubEmail>[]).find((e) => e?.primary === true && typeof e.email === "string");
  return primary ? { email: primary.email!.toLowerCase(), verified: primary.verified === true } : null;
}

/**
 * GitHub's user profile with `email` set to the primary address and `email_verified` to whether GitHub verified it
 * (Auth.js's userinfo request for the GitHub provider, replaced). `userUrl` is the provider's `/user` endpoint.
 */
export async function githubProfile(userUrl: string, accessToken: string, fetchImpl: typeof fetch = fetch): Promise<Record<string, unknown>> {
  const headers = { Authorization: `Bearer ${accessToken}`, "User-Agent": "adloom", Accept: "application/vnd.github+json" };
  const profile = (await (await fetchImpl(userUrl, { headers })).json()) as Record<string, unknown>;
  const emails = await fetchImpl(`${userUrl}/emails`, { headers });
  const primary = emails.ok ? githubPrimaryEmail(await emails.json()) : null;
  return { ...profile, email: primary?.email ?? null, email_verified: primary?.verified ?? false };
}
