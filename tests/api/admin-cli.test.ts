import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { inject } from "vitest";
import { totpCode } from "@/lib/session/totp";
import { callServerAction, cookieHeader, sessionFetch, signIn } from "../dashboard/session";
import { adminCli } from "../helpers/admin-cli";
import { admin, api, createTenant } from "../helpers/fixtures";
import { tempDataDir } from "../helpers/server";
import { itOnce } from "../helpers/run-once";

// Each test runs the CLI several times, a process each (npm, then Node loading the CLI); on a loaded 2-core machine
// one run has taken over 10 s, so the default 60 s per test is too short for a test of eight.
const CLI_TEST_TIMEOUT_MS = 240_000;

/** The Security page's activity list as lines of text ("what · when-less details"): the time, which varies, left out. */
async function securityActivity(jar: Map<string, string>): Promise<string[]> {
  const res = await fetch(`${inject("baseUrl")}/dashboard/settings/security`, { headers: { Cookie: cookieHeader(jar) } });
  const html = await res.text();
  const list = /<ul data-testid="security-activity"[^>]*>([\s\S]*?)<\/ul>/.exec(html)?.[1] ?? "";
  const text = (fragment: string) =>
    fragment
      .replace(/<[^>]+>/g, "")
      .replace(/&#x27;/g, "'")
      .replace(/&amp;/g, "&")
      .trim();
  return [...list.matchAll(/<li[^>]*>([\s\S]*?)<\/li>/g)].map(([, item]) => {
    const [what, details] = [...item!.matchAll(/<p[^>]*>([\s\S]*?)<\/p>/g)].map(([, p]) => p!.replace(/<time[\s\S]*?<\/time>/, ""));
    return `${text(what!)} · ${text(details!).replace(/^(<!-- -->)?\s*·\s*/, "")}`;
  });
}

function envForRun(dataDir: string): Record<string, string> {
  return { DATA_DIR: dataDir, ...(inject("testDb") === "postgres" ? {} : { DATABASE_URL: "" }) };
}

describe("operator CLI", () => {
  it(
    "works while the server runs, and its key serves /api/v1/me",
    async () => {
      // The shared server owns its data dir (and, on PGlite, the database): the CLI hands the command over, through a
      // socket only the owner may reach, in a folder only the owner may enter.
      const env = { DATA_DIR: inject("dataDir"), DATABASE_URL: inject("databaseUrl") };
      expect(fs.statSync(path.join(inject("dataDir"), "run")).mode & 0o777).toBe(0o700);
      expect(fs.statSync(path.join(inject("dataDir"), "run", "admin.sock")).mode & 0o777).toBe(0o600);
      const ws = await adminCli(["workspace", "create", "--name", "CLI Co", "--owner-email", `cli-${Date.now()}@example.com`], env);
      expect(ws.status).toBe(0);
      expect(ws.json).toEqual({ workspaceId: expect.stringMatching(/^ws_/), ownerUserId: expect.stringMatching(/^usr_/) });
      expect(ws.stdout.trim().split("\n")).toHaveLength(1);

      const folder = await adminCli(["folder", "create", "--workspace", ws.json.workspaceId, "--name", "Spring"], env);
      expect(folder.json).toEqual({ folderId: expect.stringMatching(/^fld_/) });
      const member = await adminCli(
        ["member", "add", "--workspace", ws.json.workspaceId, "--email", `ed-${Date.now()}@example.com`, "--role", "editor", "--folders", folder.json.folderId],
        env,
      );
      expect(member.json).toEqual({ userId: expect.stringMatching(/^usr_/) });

      const key = await adminCli(
        ["key", "create", "--workspace", ws.json.workspaceId, "--user", ws.json.ownerUserId, "--scopes", "upload,publish", "--name", "CI"],
        env,
      );
      expect(key.status).toBe(0);
      expect(key.json).toEqual({ id: expect.stringMatching(/^key_/), key: expect.stringMatching(/^adl_/) });
      expect((await api(key.json.key)("/api/v1/me")).body.account.id).toBe(ws.json.ownerUserId);

      expect((await adminCli(["plan", "set", "--workspace", ws.json.workspaceId, "--plan", "none"], env)).json).toEqual({ ok: true });
      expect((await api(key.json.key)("/api/v1/me")).status).toBe(402);
      expect((await adminCli(["key", "revoke", "--id", key.json.id], env)).json).toEqual({ ok: true });
      expect((await api(key.json.key)("/api/v1/me")).status).toBe(401);
    },
    CLI_TEST_TIMEOUT_MS,
  );

  it(
    "user two-factor-off: turns a user's two-factor off and ends their sessions; the workspace's requirement applies again",
    async () => {
      const env = { DATA_DIR: inject("dataDir"), DATABASE_URL: inject("databaseUrl") };
      const password = "a long enough password";
      const address = `squatted-${Date.now()}-${process.pid}@example.com`;
      const tenant = await createTenant();
      const { userId } = await admin(["member", "add", "--workspace", tenant.workspaceId, "--email", address, "--role", "admin"]);
      await admin(["user", "password", "--email", address, "--password", password]);
      await admin(["workspace", "two-factor", "--workspace", tenant.workspaceId, "--permissions", "account.read"]);
      const me = async (jar: Map<string, string>) => (await sessionFetch(jar)("/api/v1/me")).status;

      // Two-factor on (whoever set it up holds the authenticator): the password alone no longer signs in.
      const enrolling = (await signIn(address, password)).jar;
      const security = (name: string) => ({ file: "app/dashboard/settings/security/actions.ts", name });
      const started = await callServerAction(enrolling, "/dashboard/settings/security", security("startEnrolmentAction"));
      const secret = /"secret":"([A-Z2-7]+)"/.exec(started.body)![1]!;
      const confirmed = await callServerAction(enrolling, "/dashboard/settings/security", security("confirmEnrolmentAction"), [totpCode(secret)]);
      expect(confirmed.body).toContain('"ok":true');
      expect((await signIn(address, password)).location).toContain("code=two_factor_required");
      const withCode = await signIn(address, password, totpCode(secret));
      expect(withCode.signedIn).toBe(true);
      expect(await me(withCode.jar)).toBe(200);

      const off = await adminCli(["user", "two-factor-off", "--email", address.toUpperCase()], env);
      expect(off.status).toBe(0);
      expect(off.json).toEqual({ userId, twoFactorWasOn: true });
      // Every session from before ends (401, not the requirement's 403): the authenticator's holder is signed out too.
      expect(await me(withCode.jar)).toBe(401);
      expect(await me(enrolling)).toBe(401);

      // The password alone signs in now; the workspace still requires two-factor for account.read, so that is refused
      // until the user enrols again, which they may (starting enrolment is refused while two-factor is on).
      const after = await signIn(address, password);
      expect(after.signedIn).toBe(true);
      const refused = await sessionFetch(after.jar)("/api/v1/me");
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe("two_factor_required");
      const again = await callServerAction(after.jar, "/dashboard/settings/security", security("startEnrolmentAction"));
      expect(again.body).toMatch(/"secret":"[A-Z2-7]+"/);

      // The Security page's activity, newest first: the operator's change (no address: not from the user's browser),
      // and before it the sign-in with the authenticator code, from this client's address and browser (Node's fetch: "node").
      expect(await securityActivity(after.jar)).toEqual([
        "Signed in with password · 127.0.0.1 · node",
        "Two-factor authentication turned off by an Adloom operator · by an operator, not from a browser",
        "Signed in with password and authenticator code · 127.0.0.1 · node",
        "Two-factor authentication turned on · 127.0.0.1 · node",
        "Signed in with password · 127.0.0.1 · node",
        "Password set by an Adloom operator · by an operator, not from a browser",
      ]);
      // The address is told of the operator's changes (a job mails it), and of no sign-in.
      const notices = async () => (await admin<{ messages: { subject: string; text: string }[] }>(["mail", "list", "--to", address])).messages;
      await expect.poll(async () => (await notices()).length).toBe(2);
      const [twoFactorOff, passwordSet] = await notices();
      expect([twoFactorOff!.subject, passwordSet!.subject]).toEqual([
        "Two-factor authentication was turned off for your Adloom account",
        "Your Adloom password was set by an operator",
      ]);
      expect(twoFactorOff!.text).toContain(`An Adloom operator turned two-factor authentication off for your Adloom account (${address})`);
      expect(twoFactorOff!.text).toContain("From: an Adloom operator (not from a browser)");
      expect(twoFactorOff!.text).toMatch(/Reset your password now at http:\/\/\S+\/forgot-password:/);

      const unknown = await adminCli(["user", "two-factor-off", "--email", `nobody-${Date.now()}@example.com`], env);
      expect(unknown.status).toBe(1);
      expect(unknown.json).toEqual({ error: { code: "not_found", message: expect.stringMatching(/^No user has the email nobody-\d+@example\.com$/) } });
    },
    CLI_TEST_TIMEOUT_MS,
  );

  itOnce(
    "answers bad input with the error envelope and a non-zero exit",
    async () => {
      const env = { DATA_DIR: inject("dataDir"), DATABASE_URL: inject("databaseUrl") };
      const cases = [
        ["workspace", "create"],
        ["workspace", "create", "--name", "X", "--plan", "gold"],
        ["member", "add", "--workspace", "ws_x", "--email", "not-an-email", "--role", "editor"],
        ["member", "add", "--workspace", "ws_missing", "--email", "a@b.co", "--role", "boss"],
        ["key", "create", "--workspace", "ws_missing", "--user", "usr_missing"],
        ["key", "revoke", "--id", "key_missing"],
        ["frobnicate"],
        ["workspace", "create", "--name", "X", "--unknown-flag", "1"],
      ];
      for (const args of cases) {
        const out = await adminCli(args, env);
        expect(out.status, args.join(" ")).not.toBe(0);
        expect(out.json, args.join(" ")).toEqual({ error: { code: expect.any(String), message: expect.any(String) } });
      }
    },
    CLI_TEST_TIMEOUT_MS,
  );

  it(
    "server memory reports the running server's memory, on either database, and says so when no server runs",
    async () => {
      const env = { DATA_DIR: inject("dataDir"), DATABASE_URL: inject("databaseUrl") };
      const out = await adminCli(["server", "memory"], env);
      expect(out.status).toBe(0);
      // The shared server runs without --expose-gc: figures as they are, uncollected.
      expect(out.json).toEqual({
        collected: false,
        rss: expect.any(Number),
        heapUsed: expect.any(Number),
        heapTotal: expect.any(Number),
        external: expect.any(Number),
        arrayBuffers: expect.any(Number),
      });
      // Always the server's figures, never the CLI's own: with no server there is nothing to report.
      const none = await adminCli(["server", "memory"], envForRun(tempDataDir("no-server")));
      expect(none.status).not.toBe(0);
      expect(none.json).toEqual({ error: { code: "not_found", message: expect.stringMatching(/No server is running on .* start it first/) } });
    },
    CLI_TEST_TIMEOUT_MS,
  );

  it.runIf(inject("testDb") === "pglite")(
    "creates and migrates the embedded database itself when no server runs",
    async () => {
      const dataDir = tempDataDir("cli");
      const ws = await adminCli(["workspace", "create", "--name", "Offline", "--plan", "none"], envForRun(dataDir));
      expect(ws.status).toBe(0);
      const key = await adminCli(["key", "create", "--workspace", ws.json.workspaceId, "--user", ws.json.ownerUserId], envForRun(dataDir));
      expect(key.json.key).toMatch(/^adl_/);
    },
    CLI_TEST_TIMEOUT_MS,
  );
});
