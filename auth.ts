import NextAuth, { CredentialsSignin, type NextAuthConfig } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import GitHub from "next-auth/providers/github";
import Google from "next-auth/providers/google";
import { isAppError } from "@/lib/errors";
import { currentClientAddress } from "@/lib/observability/client-address";
import { log } from "@/lib/log";
import { getConfig } from "@/lib/services";
import { oauthSignIn, oauthUserId, verifyCredentials } from "@/lib/session/accounts";
import { githubProfile, profileEmail } from "@/lib/session/oauth-profile";
import { currentSessionVersion, sessionIsCurrent } from "@/lib/session/revocation";
import { recordSecurityEventQuietly, type SignInMethod } from "@/lib/session/security-events";
import { getAuthSecret } from "@/lib/session/secret";
import { beginPasswordAttempt, passwordAttemptSucceeded } from "@/lib/session/sign-in-throttle";
import { verifySecondFactor } from "@/lib/session/two-factor";

/** Wrong email or password (deliberately not saying which). */
export class InvalidCredentials extends CredentialsSignin {
  code = "invalid_credentials";
}
/** Password was right; the account needs its authenticator code. */
export class SecondFactorNeeded extends CredentialsSignin {
  code = "two_factor_required";
}
export class InvalidSecondFactor extends CredentialsSignin {
  code = "invalid_code";
}
export class TooManyAttempts extends CredentialsSignin {
  code = "throttled";
}

function config(): NextAuthConfig {
  const { oauth, authUrl } = getConfig();
  // Auth.js takes its own URL (the OAuth redirect_uri, where it redirects) from AUTH_URL, which it reads from the
  // environment at each call. Unset, it takes the Host header in the sign-in button's server action but `next start`'s
  // http://localhost:PORT in its route handler, so the callback's token exchange names another redirect_uri than the
  // authorization request and Google and GitHub refuse the sign-in. Left to the request only without PUBLIC_BASE_URL
  // (a service reached at localhost), where pinning it would send a visitor on another host to localhost.
  if (authUrl) process.env.AUTH_URL = authUrl;
  return {
    secret: getAuthSecret(),
    trustHost: true,
    session: { strategy: "jwt", maxAge: 14 * 86_400 },
    pages: { signIn: "/sign-in", error: "/sign-in" },
    // A wrong password or code is an answer to the visitor, not a server fault: no stack trace in the log.
    logger: {
      error(error) {
        if (error instanceof CredentialsSignin || (error as { type?: string }).type === "CredentialsSignin") return;
        console.error(error);
      },
    },
    providers: [
      Credentials({
        credentials: { email: {}, password: {}, code: {} },
        authorize: async (raw) => {
          const email = String(raw.email ?? "")
            .trim()
            .toLowerCase();
          const password = String(raw.password ?? "");
          const code = String(raw.code ?? "").trim();
          // Limits per account from this client address and per address (lib/session/sign-in-throttle.ts): a
          // stranger's failures do not lock the owner out, and one address cannot spray a password over many accounts.
          const address = currentClientAddress();
          if (!(await beginPasswordAttempt(email, address))) throw new TooManyAttempts();
          const user = await verifyCredentials(email, password);
          if (!user) throw new InvalidCredentials();
          // Not waited for: a successful sign-in waits for one statement of the limits (the count above), not two. Should
          // it fail, this attempt stays counted as a failure until its window ends.
          void passwordAttemptSucceeded(email, address).catch((err: unknown) => log.warn("could not settle a successful sign-in's attempt", { err }));
          let method: SignInMethod = "password";
          if (user.twoFactorEnabled) {
            if (!code) throw new SecondFactorNeeded();
            const factor = await verifySecondFactor(user.id, code).catch((err: unknown) => {
              if (isAppError(err) && err.code === "rate_limited") throw new TooManyAttempts();
              throw err;
            });
            if (!factor) throw new InvalidSecondFactor();
            method = factor === "totp" ? "password_totp" : "password_recovery_code";
          }
          // For the Security page's activity; a failed record is logged and the sign-in goes on.
          await recordSecurityEventQuietly({ userId: user.id, kind: "signed_in", method });
          return { id: user.id, email: user.email, name: user.name };
        },
      }),
      ...(oauth.github
        ? [
            GitHub({
              clientId: oauth.github.clientId,
              clientSecret: oauth.github.clientSecret,
              authorization: { url: oauth.github.authorizeUrl },
              token: oauth.github.tokenUrl,
              // The primary address and whether GitHub verified it (the default takes the primary one unchecked).
              userinfo: {
                url: `${oauth.github.apiUrl}/user`,
                request: ({ tokens, provider }: { tokens: { access_token?: string }; provider: { userinfo?: { url?: URL } } }) =>
                  githubProfile(String(provider.userinfo?.url), String(tokens.access_token)),
              },
            }),
          ]
        : []),
      ...(oauth.google ? [Google({ clientId: oauth.google.clientId, clientSecret: oauth.google.clientSecret, issuer: oauth.google.issuer })] : []),
    ],
    callbacks: {
      async signIn({ account, profile, user }) {
        if (!account || account.provider === "credentials") return true;
        // Both providers say whether the address is verified (GitHub's through githubProfile above); only a verified
        // one may name an Adloom account.
        const provided = profileEmail(profile);
        if (!provided?.verified) return "/sign-in?error=oauth_email";
        const outcome = await oauthSignIn(provided.email, profile?.name ?? user.name);
        // An account whose address was never proven, with a password someone else may hold: not handed over.
        if (!outcome.ok) return "/sign-in?error=oauth_unverified";
        // OAuth cannot ask for the authenticator code: accounts with two-factor sign in with their password.
        if (outcome.user.twoFactorEnabled) return "/sign-in?error=oauth_two_factor";
        await recordSecurityEventQuietly({ userId: outcome.user.id, kind: "signed_in", method: account.provider === "google" ? "google" : "github" });
        return true;
      },
      async jwt({ token, user, account }) {
        if (user && account) {
          if (account.provider === "credentials") token.uid = user.id;
          else token.uid = await oauthUserId(token.email!);
          token.sv = (await currentSessionVersion(token.uid as string)) ?? 0;
          return token;
        }
        // Every later use: a session issued before the user's sessions were revoked (or of a deleted user) ends.
        if (typeof token.uid === "string" && !(await sessionIsCurrent(token))) return null;
        return token;
      },
      async session({ session, token }) {
        if (typeof token.uid === "string") session.user.id = token.uid;
        return session;
      },
    },
  };
}

export const { handlers, auth, signIn, signOut } = NextAuth(() => config());
