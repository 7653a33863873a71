/**
 * Sign-up creates a new account: two sign-ups with one email at the same moment make one account, not one with two
 * workspaces. A Google or GitHub sign-in takes an existing account only once its address is proven (a stranger may
 * have signed up with it); the sign-in itself goes through Auth.js in auth.ts, which hands the address to oauthSignIn.
 */
import { beforeAll, describe, expect, it, vi } from "vitest";
import { useFreshDatabase } from "../helpers/in-process-db";

beforeAll(async () => {
  await useFreshDatabase("sign_up");
});

describe("sign-up", () => {
  it("of one email twice at once: one succeeds, the other is a conflict, and the account has one workspace", async () => {
    const { signUp } = await import("@/lib/session/accounts");
    const { getDb } = await import("@/lib/db/client");
    const email = `same-${Date.now()}@example.com`;
    const attempt = (workspaceName: string, password: string) => signUp({ name: "Sam", email, password, workspaceName });
    const results = await Promise.allSettled([attempt("First Co", "first password 123"), attempt("Second Co", "second password 456")]);

    const succeeded = results.filter((r) => r.status === "fulfilled");
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(succeeded).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect(refused[0]!.reason).toMatchObject({ code: "conflict", message: "An account with this email already exists; sign in instead" });
    const user = await getDb().user.findUniqueOrThrow({ where: { email }, include: { memberships: true } });
    expect(user.memberships).toHaveLength(1);

    // Later, the early check answers the same.
    await expect(attempt("Third Co", "third password 789")).rejects.toMatchObject({ code: "conflict" });
  });
});

describe("sign-in with Google or GitHub (a verified address)", () => {
  const PASSWORD = "a stranger's password";

  it("does not open an account made with the address whose address was never proven, until its owner proves it", async () => {
    const { signUp, oauthSignIn, verifyCredentials } = await import("@/lib/session/accounts");
    const { requestPasswordReset, sendPasswordResetEmail, completePasswordReset } = await import("@/lib/session/password-reset");
    const { listOutbox } = await import("@/lib/mail/send-mail");
    const { getDb } = await import("@/lib/db/client");
    const email = `owner-${Date.now()}@example.com`;
    // Someone signs up with the address (nothing proves it is theirs): Google's sign-in for it is refused, whatever
    // the case of the address the provider gives.
    const { userId } = await signUp({ name: "Not The Owner", email, password: PASSWORD, workspaceName: "Squat Co" });
    expect(await oauthSignIn(email.toUpperCase(), "The Owner")).toEqual({ ok: false, reason: "unverified_account" });
    expect(await getDb().user.count({ where: { email } })).toBe(1);

    // The owner sets a password through the link mailed to the address: the account is theirs, and Google opens it.
    await requestPasswordReset({ email });
    await sendPasswordResetEmail({ userId }); // the password-reset-email job's work, which the request left to it
    const reset = (await listOutbox({ to: email })).messages.find((m) => m.subject === "Reset your Adloom password")!;
    await completePasswordReset({ token: /\/reset-password\/([\w-]+)/.exec(reset.text)![1]!, password: "the owner's own password" });
    expect(await verifyCredentials(email, PASSWORD)).toBeNull();
    expect(await oauthSignIn(email, "The Owner")).toMatchObject({ ok: true, user: { id: userId, email } });
  });

  it("a new address gets a verified account; an operator's account without a password is verified by the sign-in", async () => {
    const { oauthSignIn } = await import("@/lib/session/accounts");
    const { createWorkspace } = await import("@/lib/workspaces/workspaces");
    const { getDb } = await import("@/lib/db/client");
    const fresh = `fresh-${Date.now()}@example.com`;
    const made = await oauthSignIn(fresh, "Fresh Face");
    expect(made).toMatchObject({ ok: true, user: { email: fresh, name: "Fresh Face" } });
    const user = await getDb().user.findUniqueOrThrow({ where: { email: fresh }, include: { memberships: true } });
    expect(user.emailVerifiedAt).not.toBeNull();
    expect(user.memberships).toHaveLength(1);

    const added = `added-${Date.now()}@example.com`;
    const { ownerUserId } = await createWorkspace({ name: "Operator Co", plan: null, ownerEmail: added });
    expect((await getDb().user.findUniqueOrThrow({ where: { id: ownerUserId } })).emailVerifiedAt).toBeNull();
    expect(await oauthSignIn(added, null)).toMatchObject({ ok: true, user: { id: ownerUserId } });
    expect((await getDb().user.findUniqueOrThrow({ where: { id: ownerUserId } })).emailVerifiedAt).not.toBeNull();
  });

  it("takes an address only when the provider says it is verified: Google's email_verified, GitHub's primary address", async () => {
    const { githubPrimaryEmail, githubProfile, profileEmail } = await import("@/lib/session/oauth-profile");
    expect(profileEmail({ email: "A@Example.com", email_verified: true })).toEqual({ email: "a@example.com", verified: true });
    for (const claim of [false, undefined, "true"]) expect(profileEmail({ email: "a@example.com", email_verified: claim })?.verified).toBe(false);
    expect(profileEmail({})).toBeNull();

    const emails = [
      { email: "work@example.com", primary: false, verified: true },
      { email: "Main@example.com", primary: true, verified: false },
    ];
    expect(githubPrimaryEmail(emails)).toEqual({ email: "main@example.com", verified: false });
    expect(githubPrimaryEmail([{ ...emails[1], verified: true }])).toEqual({ email: "main@example.com", verified: true });
    expect(githubPrimaryEmail({ message: "Requires authentication" })).toBeNull();
    // The public profile email is replaced by the primary one and its verification (Auth.js took it unchecked).
    const answers: Record<string, unknown> = {
      "https://api.github.test/user": { id: 7, login: "octo", email: "public@example.com" },
      "https://api.github.test/user/emails": emails,
    };
    const fakeFetch = (async (url: string) => new Response(JSON.stringify(answers[url]), { status: 200 })) as unknown as typeof fetch;
    const profile = await githubProfile("https://api.github.test/user", "token", fakeFetch);
    expect(profileEmail(profile)).toEqual({ email: "main@example.com", verified: false });
  });
});

describe("an address a stranger signed up with and protected with two-factor", () => {
  /** Signs up with the address and turns two-factor on, as the stranger would; the account's id. */
  const signUpWithTwoFactor = async (email: string) => {
    const { signUp } = await import("@/lib/session/accounts");
    const { confirmTwoFactorEnrolment, startTwoFactorEnrolment } = await import("@/lib/session/two-factor");
    const { totpCode } = await import("@/lib/session/totp");
    const { userId } = await signUp({ name: "Not The Owner", email, password: "a stranger's password", workspaceName: "Squat Co" });
    const { secret } = await startTwoFactorEnrolment(userId);
    expect((await confirmTwoFactorEnrolment(userId, totpCode(secret))).recoveryCodes).toHaveLength(10);
    return userId;
  };
  /** The owner's reset through the link mailed to the address: what the reset answers. */
  const resetByEmail = async (userId: string, email: string) => {
    const { sendPasswordResetEmail, completePasswordReset } = await import("@/lib/session/password-reset");
    const { listOutbox } = await import("@/lib/mail/send-mail");
    await sendPasswordResetEmail({ userId });
    const reset = (await listOutbox({ to: email })).messages.find((m) => m.subject === "Reset your Adloom password")!;
    return completePasswordReset({ token: /\/reset-password\/([\w-]+)/.exec(reset.text)![1]!, password: "the owner's own password" });
  };

  it("the owner's reset, the address's first proof, turns the stranger's two-factor off: secret and recovery codes deleted", async () => {
    const { verifyCredentials } = await import("@/lib/session/accounts");
    const { getDb } = await import("@/lib/db/client");
    const email = `squatted-${Date.now()}@example.com`;
    const userId = await signUpWithTwoFactor(email);

    expect(await resetByEmail(userId, email)).toEqual({ email, revoked: { apiKeys: 0, appConnections: 0, twoFactor: true } });
    const user = await getDb().user.findUniqueOrThrow({ where: { id: userId }, include: { recoveryCodes: true } });
    expect(user).toMatchObject({ twoFactorEnabled: false, twoFactorSecret: null, recoveryCodes: [] });
    // The password alone signs in (auth.ts asks for a code only when twoFactorEnabled).
    expect(await verifyCredentials(email, "the owner's own password")).toMatchObject({ id: userId, twoFactorEnabled: false });
    // Two-factor going off is the user's own event (by whoever opened the link), which emails its notice.
    const events = await getDb().securityEvent.findMany({ where: { userId, kind: { in: ["two_factor_off", "password_reset"] } } });
    expect(events.map((e) => [e.kind, e.actor]).sort()).toEqual([
      ["password_reset", "user"],
      ["two_factor_off", "user"],
    ]);
  });

  it("a reset of a confirmed address keeps two-factor on; the operator's command removes it, its codes and every session", async () => {
    const { verifyCredentials } = await import("@/lib/session/accounts");
    const { removeTwoFactorByOperator } = await import("@/lib/session/two-factor");
    const { getDb } = await import("@/lib/db/client");
    const email = `protected-${Date.now()}@example.com`;
    const userId = await signUpWithTwoFactor(email);
    await getDb().user.update({ where: { id: userId }, data: { emailVerifiedAt: new Date() } }); // its confirmation link opened

    expect(await resetByEmail(userId, email)).toEqual({ email });
    expect(await verifyCredentials(email, "the owner's own password")).toMatchObject({ id: userId, twoFactorEnabled: true });
    const before = await getDb().user.findUniqueOrThrow({ where: { id: userId }, include: { recoveryCodes: true } });
    expect(before.twoFactorSecret).not.toBeNull();
    expect(before.recoveryCodes).toHaveLength(10);

    const written: string[] = [];
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation((line) => written.push(String(line)) > 0);
    const answer = await removeTwoFactorByOperator(email.toUpperCase()).finally(() => stderr.mockRestore());
    expect(answer).toEqual({ userId, twoFactorWasOn: true });
    const user = await getDb().user.findUniqueOrThrow({ where: { id: userId }, include: { recoveryCodes: true } });
    expect(user).toMatchObject({ twoFactorEnabled: false, twoFactorSecret: null, sessionVersion: before.sessionVersion + 1, recoveryCodes: [] });
    expect(await verifyCredentials(email, "the owner's own password")).toMatchObject({ id: userId, twoFactorEnabled: false });
    // The operator's action is on record: one warn line of the structured log.
    const logged = written.filter((line) => line.includes("two-factor turned off by the operator"));
    expect(logged.map((line) => JSON.parse(line))).toEqual([expect.objectContaining({ level: "warn", component: "security", userId, twoFactorWasOn: true })]);

    await expect(removeTwoFactorByOperator(`nobody-${Date.now()}@example.com`)).rejects.toMatchObject({ code: "not_found" });
  });
});
