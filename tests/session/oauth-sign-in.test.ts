// "Continue with Google" and "Continue with GitHub" over HTTP through the real server, whose providers are local wire
// fakes (AUTH_GOOGLE_ISSUER; AUTH_GITHUB_AUTHORIZE_URL, _TOKEN_URL, _API_URL): the sign-in page's button, the
// provider's authorization page, the callback with its code, Auth.js's token exchange (PKCE), Google's ID token and
// GitHub's /user and /user/emails, the session cookie, the security event, and the refusals of an address the provider
// has not verified (oauth_email) and of a password account whose address was never confirmed (oauth_unverified).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cookieHeader, type ProviderSignInResult, signInWithProvider, submitPageForm } from "../dashboard/session";
import { type GitHubAccount, type GitHubFake, startGitHubFake } from "../helpers/fake-github";
import { freePort } from "../helpers/ports";
import { startServer, type TestServer } from "../helpers/server";
import { type DriveFake, startDriveFake } from "../helpers/storage-fakes";

const GOOGLE = { clientId: "adloom-sign-in.apps.googleusercontent.com", clientSecret: "google-sign-in-secret" };
const GITHUB = { clientId: "Ov23liAdloomSignIn", clientSecret: "github-sign-in-secret" };

let google: DriveFake;
let github: GitHubFake;
let server: TestServer;
let publicUrl: string;

beforeAll(async () => {
  google = await startDriveFake(GOOGLE);
  github = await startGitHubFake(GITHUB);
  // People reach the service under its public name (here one this test's browser resolves to loopback), as behind a
  // reverse proxy: Auth.js's URL, and so the redirect_uri both providers see, is PUBLIC_BASE_URL.
  const port = await freePort();
  publicUrl = `http://adloom.test:${port}`;
  server = await startServer({
    port,
    env: {
      PUBLIC_BASE_URL: publicUrl,
      AUTH_GOOGLE_ID: GOOGLE.clientId,
      AUTH_GOOGLE_SECRET: GOOGLE.clientSecret,
      AUTH_GOOGLE_ISSUER: google.issuer,
      AUTH_GITHUB_ID: GITHUB.clientId,
      AUTH_GITHUB_SECRET: GITHUB.clientSecret,
      AUTH_GITHUB_AUTHORIZE_URL: github.authorizeUrl,
      AUTH_GITHUB_TOKEN_URL: github.tokenUrl,
      AUTH_GITHUB_API_URL: github.apiUrl,
      LEADS_POLL: "0",
      IMPORT_SYNC: "0",
      COMMENTS_POLL: "0",
    },
  });
  github.registerCallback(`${publicUrl}/api/auth/callback/github`);
}, 180_000);

afterAll(async () => {
  await server?.stop();
  await google?.close();
  await github?.close();
});

let seq = 0;
const address = (label: string) => `${label}-${Date.now()}-${++seq}@example.com`;

/** Who the session cookie says is signed in (Auth.js's own session endpoint), or null. */
async function sessionEmail(jar: Map<string, string>): Promise<string | null> {
  const res = await fetch(`${server.url}/api/auth/session`, { headers: { Cookie: cookieHeader(jar) } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { user?: { email?: string } } | null)?.user?.email ?? null;
}

/** The Security page's activity list, in words. */
async function securityActivity(jar: Map<string, string>): Promise<string> {
  const res = await fetch(`${server.url}/dashboard/settings/security`, { headers: { Cookie: cookieHeader(jar) }, redirect: "manual" });
  expect(res.status).toBe(200);
  return /<ul data-testid="security-activity"[^>]*>([\s\S]*?)<\/ul>/.exec(await res.text())?.[1] ?? "";
}

/** Refused: back on /sign-in with `error` and its notice, and no session. */
function expectRefused(result: ProviderSignInResult, error: string, notice: RegExp) {
  expect(`${result.landed.pathname}${result.landed.search}`).toBe(`/sign-in?error=${error}`);
  expect(result.status).toBe(200);
  expect(result.html).toMatch(notice);
  expect(result.signedIn).toBe(false);
}

describe("Google sign-in (OpenID Connect)", () => {
  it("makes a new user's account and session from a verified address, and records the sign-in", async () => {
    const email = address("gail");
    google.chooseAccount({ sub: `1${Date.now()}`, email, email_verified: true, name: "Gail Google" });
    const from = google.requests.length;
    const result = await signInWithProvider("google", publicUrl);

    // Discovery named the authorization endpoint; the request is Google's documented one, with PKCE.
    const authorization = result.visited[0]!;
    expect(`${authorization.origin}${authorization.pathname}`).toBe(`${google.issuer}/o/oauth2/v2/auth`);
    expect(Object.fromEntries(authorization.searchParams)).toMatchObject({
      client_id: GOOGLE.clientId,
      response_type: "code",
      redirect_uri: `${publicUrl}/api/auth/callback/google`,
      code_challenge_method: "S256",
    });
    expect(authorization.searchParams.get("scope")!.split(" ").sort()).toEqual(["email", "openid", "profile"]);
    const callback = result.visited[1]!;
    expect(callback.pathname).toBe("/api/auth/callback/google");
    expect(callback.searchParams.get("code")).toBeTruthy();
    const seen = google.requests.slice(from).map((r) => `${r.method} ${r.path}`);
    expect(seen).toContain("GET /.well-known/openid-configuration");
    const exchange = google.requests.slice(from).find((r) => r.path === "/token")!;
    expect(exchange.method).toBe("POST");
    expect(Object.fromEntries(new URLSearchParams(exchange.body))).toMatchObject({ grant_type: "authorization_code", code: callback.searchParams.get("code") });

    // Signed in, on the dashboard, as the Google address.
    expect(result.signedIn).toBe(true);
    expect(result.status).toBe(200);
    expect(result.landed.pathname).toMatch(/^\/dashboard/);
    expect(await sessionEmail(result.jar)).toBe(email);
    expect(await securityActivity(result.jar)).toMatch(/Signed in with Google/);
  });

  it("refuses an address Google has not verified", async () => {
    google.chooseAccount({ sub: `2${Date.now()}`, email: address("unverified-google"), email_verified: false, name: "Una Verified" });
    expectRefused(await signInWithProvider("google", publicUrl), "oauth_email", /did not share a verified email address/);
  });

  it("does not open a password account whose address was never confirmed", async () => {
    const email = address("squatted");
    const signUp = await submitPageForm(
      "/sign-up",
      { name: "Sam Squatter", email, password: "a long enough password", workspaceName: "Squat Co" },
      {},
      server.url,
    );
    expect(signUp.status).toBeLessThan(400);
    google.chooseAccount({ sub: `3${Date.now()}`, email, email_verified: true, name: "Real Owner" });
    expectRefused(await signInWithProvider("google", publicUrl), "oauth_unverified", /its address was never confirmed/);
  });
});

describe("GitHub sign-in (OAuth app)", () => {
  const account = (id: number, emails: GitHubAccount["emails"], publicEmail: string | null = null): GitHubAccount => ({
    id,
    login: `octo${id}`,
    name: null,
    publicEmail,
    emails,
  });

  it("signs in with the verified primary address of /user/emails, not the public one", async () => {
    const primary = address("octo-primary");
    const id = 900_000 + seq;
    github.chooseAccount(
      account(
        id,
        [
          { email: address("octo-public"), primary: false, verified: true, visibility: "public" },
          { email: primary, primary: true, verified: true, visibility: "private" },
        ],
        null,
      ),
    );
    const from = github.requests.length;
    const result = await signInWithProvider("github", publicUrl);

    const authorization = result.visited[0]!;
    expect(authorization.toString().startsWith(`${github.authorizeUrl}?`)).toBe(true);
    expect(Object.fromEntries(authorization.searchParams)).toMatchObject({
      client_id: GITHUB.clientId,
      redirect_uri: `${publicUrl}/api/auth/callback/github`,
      scope: "read:user user:email",
      code_challenge_method: "S256",
    });
    const seen = github.requests.slice(from).map((r) => `${r.method} ${r.path}`);
    expect(seen).toEqual(["GET /login/oauth/authorize", "POST /login/oauth/access_token", "GET /api/user", "GET /api/user/emails"]);

    expect(result.signedIn).toBe(true);
    expect(result.landed.pathname).toMatch(/^\/dashboard/);
    expect(await sessionEmail(result.jar)).toBe(primary);
    expect(await securityActivity(result.jar)).toMatch(/Signed in with GitHub/);
  });

  it("refuses an account whose primary address GitHub has not verified, even with a verified other one", async () => {
    const unverified = address("octo-unverified");
    github.chooseAccount(
      account(
        910_000 + seq,
        [
          { email: unverified, primary: true, verified: false, visibility: "public" },
          { email: address("octo-other"), primary: false, verified: true, visibility: null },
        ],
        unverified,
      ),
    );
    expectRefused(await signInWithProvider("github", publicUrl), "oauth_email", /did not share a verified email address/);
  });
});
