/**
 * Email (issue 17): password reset, address confirmation and invites go through SMTP_URL when set (a real SMTP server
 * started here receives them), else into the database outbox that `mail list` prints.
 */
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useFreshDatabase } from "../helpers/in-process-db";

const received: { to: string[]; raw: string }[] = [];
let smtp: SMTPServer;
let smtpUrl: string;
/** A recipient whose password-reset message the SMTP server holds (no answer to its DATA) until `release` resolves. */
let hold: { to: string; arrived: () => void; release: Promise<void> } | undefined;
/** The reset email to this address (the sign-up's address confirmation goes to the same address). */
const isResetTo = (email: string) => (m: { to: string[]; raw: string }) => m.to.includes(email) && m.raw.includes("Subject: Reset your Adloom password");

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onData(stream, session, callback) {
      let raw = "";
      stream.on("data", (c: Buffer) => (raw += c.toString()));
      stream.on("end", async () => {
        const to = session.envelope.rcptTo.map((r) => r.address);
        if (hold && isResetTo(hold.to)({ to, raw })) {
          hold.arrived();
          await hold.release;
        }
        received.push({ to, raw });
        callback();
      });
    },
  });
  await new Promise<void>((r) => smtp.listen(0, "127.0.0.1", r));
  smtpUrl = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`;
  // Reset links are built from it (never from a request's Host).
  process.env.PUBLIC_BASE_URL = "http://adloom.test";
  await useFreshDatabase("mail");
  // The app's modules load here, under the hook's timeout: in this isolated worker, beside the rest of the suite,
  // their first load was most of the first test's time (16-21 s usually, 60-72 s on a slow machine).
  await Promise.all([
    import("@/lib/services"),
    import("@/lib/session/password-reset"),
    import("@/lib/session/accounts"),
    import("@/lib/admin/commands"),
    import("@/lib/mail/send-mail"),
    import("@/lib/team/invites"),
    import("@/lib/session/principal"),
    import("@/inngest/functions"),
  ]);
});
afterAll(async () => {
  delete process.env.PUBLIC_BASE_URL;
  await new Promise<void>((r) => smtp.close(r));
});

/** Reads the environment again: the process's services (configuration included) are made anew. */
async function reconfigure() {
  const { createServices, disposeServices } = await import("@/lib/services");
  await disposeServices();
  createServices();
}

async function createUser(email: string) {
  const { signUp } = await import("@/lib/session/accounts");
  return signUp({ name: "Mia Mail", email, password: "old password 123", workspaceName: "Mail Co" });
}
/**
 * Runs `fn` with an embedded job runner in this process for the jobs that email: the reset form answers before its link
 * is made and emailed, by the password-reset-email job; a security change's notice goes by the security-notice-email job
 * (a runner with no function when the app has no such job).
 */
async function withMailJobs(fn: () => Promise<void>): Promise<void> {
  const [{ serve }, { APP_ID, inngest }, { functions: all }, { EmbeddedRunner }, { getEmbeddedSigningKey }, { getDb }, { getConfig }] = await Promise.all([
    import("inngest/next"),
    import("@/inngest/client"),
    import("@/inngest/functions"),
    import("@/lib/jobs/embedded"),
    import("@/lib/jobs/signing-key"),
    import("@/lib/db/client"),
    import("@/lib/services"),
  ]);
  const functions = all.filter((f) => ["password-reset-email", "security-notice-email"].includes(f.id()));
  const handler = serve({ client: inngest, functions });
  const runner = new EmbeddedRunner({
    db: getDb(),
    appId: APP_ID,
    functions,
    handler: (req) => handler.POST(req as never, undefined),
    signingKey: getEmbeddedSigningKey(getConfig().dataDir),
    concurrency: 2,
    pollIntervalMs: 100,
    reclaimLeasesOnStart: true,
    logger: { info: () => {}, error: () => {} },
  });
  await runner.start();
  try {
    await fn();
  } finally {
    await runner.stop();
  }
}

const resetLink = (text: string) => /(http:\/\/[^\s]+\/reset-password\/[A-Za-z0-9_-]+)/.exec(text)?.[1];
/** A message as the SMTP server got it, its quoted-printable body decoded (soft line breaks, `=3D`). */
const decoded = (raw: string) => raw.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));

describe("mail without SMTP: the outbox", () => {
  it("a reset request for an account lands in the outbox (listed by `mail list --to`), the link sets the password once", async () => {
    delete process.env.SMTP_URL;
    await reconfigure();
    const { requestPasswordReset, completePasswordReset, findPasswordReset } = await import("@/lib/session/password-reset");
    const { runAdminCommand } = await import("@/lib/admin/commands");
    const { verifyCredentials } = await import("@/lib/session/accounts");
    const { describeMailTransport } = await import("@/lib/mail/send-mail");
    expect(describeMailTransport()).toContain("database outbox");
    const email = `outbox-${Date.now()}@example.com`;
    await createUser(email);
    const outbox = async () =>
      ((await runAdminCommand(["mail", "list", "--to", email])) as { messages: { to: string; subject: string; text: string }[] }).messages;
    await withMailJobs(async () => {
      await requestPasswordReset({ email: email.toUpperCase() });
      await requestPasswordReset({ email: `nobody-${Date.now()}@example.com` });
      // The sign-up's address confirmation is there already; the reset comes from the job.
      await expect.poll(async () => (await outbox()).length).toBe(2);
    });

    const all = await outbox();
    // The sign-up's address confirmation, then the reset.
    expect(all.map((m) => m.subject)).toEqual(["Reset your Adloom password", "Confirm your email address for Adloom"]);
    const messages = all.slice(0, 1);
    expect(messages[0]).toMatchObject({ to: email, subject: "Reset your Adloom password" });
    const link = resetLink(messages[0]!.text)!;
    expect(link).toMatch(/^http:\/\/adloom\.test\/reset-password\//);
    const token = link.split("/").pop()!;
    expect(await findPasswordReset(token)).toEqual({ email });
    await completePasswordReset({ token, password: "new password 456" });
    expect(await verifyCredentials(email, "new password 456")).toMatchObject({ email });
    expect(await verifyCredentials(email, "old password 123")).toBeNull();
    await expect(completePasswordReset({ token, password: "third password 789" })).rejects.toThrow(/expired or was already used/);
    expect(await findPasswordReset(token)).toBeNull();
  });
});

describe("mail through SMTP", () => {
  it("a reset link, the sign-up's confirmation link and an invite arrive at the SMTP server, not in the outbox", async () => {
    process.env.SMTP_URL = smtpUrl;
    await reconfigure();
    const { requestPasswordReset } = await import("@/lib/session/password-reset");
    const { createInvite } = await import("@/lib/team/invites");
    const { principalForUser } = await import("@/lib/session/principal");
    const { listOutbox, describeMailTransport } = await import("@/lib/mail/send-mail");
    expect(describeMailTransport()).toBe(`mail: SMTP via 127.0.0.1:${new URL(smtpUrl).port}`);
    const email = `smtp-${Date.now()}@example.com`;
    const { userId } = await createUser(email);
    await withMailJobs(async () => {
      await requestPasswordReset({ email });
      await expect.poll(() => received.some(isResetTo(email))).toBe(true);
    });
    const invitee = `invitee-${Date.now()}@example.com`;
    const invite = await createInvite((await principalForUser(userId))!, { email: invitee, role: "editor", baseUrl: "http://adloom.test" });
    expect(invite.emailed).toBe(true);

    const toReset = received.find(isResetTo(email))!;
    expect(decoded(toReset.raw)).toMatch(/http:\/\/adloom\.test\/reset-password\/[A-Za-z0-9_-]+/);
    const toConfirm = received.find((m) => m.to.includes(email) && m.raw.includes("Subject: Confirm your email address for Adloom"))!;
    expect(decoded(toConfirm.raw)).toMatch(/http:\/\/adloom\.test\/verify-email\/[A-Za-z0-9_-]+/);
    const toInvitee = received.find((m) => m.to.includes(invitee))!;
    // The emailed link is the one returned, with the secret that proves the invitee reads this mailbox.
    expect(decoded(toInvitee.raw)).toMatch(new RegExp(`${invite.url.replace(/[.?]/g, "\\$&")}\\?mail=[A-Za-z0-9_-]{32}\\s`));
    expect((await listOutbox({ to: email })).messages).toEqual([]);
    delete process.env.SMTP_URL;
    await reconfigure();
  });

  it("a password change is recorded with its address and browser, and the account's address is told: what, when, from where, what to do", async () => {
    process.env.SMTP_URL = smtpUrl;
    await reconfigure();
    const { changePassword } = await import("@/lib/account/profile");
    const { getDb } = await import("@/lib/db/client");
    const { requestContext } = await import("@/lib/observability/request-context");
    const { IncomingMessage } = await import("node:http");
    const { Socket } = await import("node:net");
    const email = `changed-${Date.now()}@example.com`;
    const { userId } = await createUser(email);
    await getDb().user.update({ where: { id: userId }, data: { timeZone: "Europe/Berlin", locale: "de-DE" } });
    // The request as the HTTP server hands it on (lib/server/http-observer.ts): its peer and its User-Agent header.
    const incoming = new IncomingMessage(Object.defineProperty(new Socket(), "remoteAddress", { value: "203.0.113.7" }));
    incoming.rawHeaders = ["User-Agent", "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0"];
    incoming.headers = { "user-agent": incoming.rawHeaders[1] };
    const isNotice = (m: { to: string[]; raw: string }) => m.to.includes(email) && m.raw.includes("Subject: Your Adloom password was changed");
    await withMailJobs(async () => {
      await requestContext.run({ requestId: "req_password_change", incoming }, () =>
        changePassword(userId, { current: "old password 123", next: "new password 456" }),
      );
      await expect.poll(() => received.some(isNotice)).toBe(true);
    });

    const events = await getDb().securityEvent.findMany({ where: { userId } });
    expect(events).toMatchObject([{ kind: "password_changed", actor: "user", address: "203.0.113.7", userAgent: "Firefox on Linux" }]);
    const body = decoded(received.find(isNotice)!.raw);
    expect(body).toContain(`The password of your Adloom account (${email}) was changed`);
    // When, in the member's own zone and locale, with UTC beside it; from where; and the way back in if it was not them.
    expect(body).toMatch(/When: \d{1,2}\. \S+ \d{4} um \d\d:\d\d:\d\d MES?Z \(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\)/);
    expect(body).toContain("From: 203.0.113.7, Firefox on Linux");
    expect(body).toContain("If it was not you, someone else may have your account. Reset your password now at http://adloom.test/forgot-password");
    delete process.env.SMTP_URL;
    await reconfigure();
  });

  it("a reset request for a known address answers before the mail server has the email: the email arrives after", async () => {
    process.env.SMTP_URL = smtpUrl;
    await reconfigure();
    const { requestPasswordReset } = await import("@/lib/session/password-reset");
    const email = `held-${Date.now()}@example.com`;
    await createUser(email);
    let release!: () => void;
    let arrived!: () => void;
    const atServer = new Promise<void>((resolve) => (arrived = resolve));
    hold = { to: email, arrived, release: new Promise<void>((resolve) => (release = resolve)) };
    try {
      await withMailJobs(async () => {
        let answered = false;
        const request = requestPasswordReset({ email }).then(() => {
          answered = true;
        });
        // The message has reached the SMTP server, which has not answered it: the request answered already (it made
        // and sent nothing while the visitor waited, as for an address without an account).
        await atServer;
        expect(answered).toBe(true);
        expect(received.some(isResetTo(email))).toBe(false);
        release();
        await request;
        await expect.poll(() => received.some(isResetTo(email))).toBe(true);
      });
    } finally {
      release();
      hold = undefined;
      delete process.env.SMTP_URL;
      await reconfigure();
    }
  });
});
