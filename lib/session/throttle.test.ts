import { spawn } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { AppError } from "@/lib/errors";
import { useFreshDatabase } from "@/tests/helpers/in-process-db";
import {
  beginPasswordAttempt,
  forgetSignInFailures,
  passwordAttemptSucceeded,
  SECOND_FACTOR_FAILURES_PER_ACCOUNT,
  SIGN_IN_FAILURES_PER_ACCOUNT_AND_ADDRESS,
  SIGN_IN_FAILURES_PER_ADDRESS,
  throttledPasswordCheck,
  throttledSecondFactor,
} from "./sign-in-throttle";
import { beginAttempt, clearFailures, purgeEndedAttemptCounters } from "./throttle";

// The counters live in the database (attempt_counters): a fresh one per run, PGlite or PostgreSQL (TEST_DB).
beforeAll(() => useFreshDatabase("throttle"));
afterAll(async () => (await import("@/lib/services")).disposeServices());

const unique = () => `${Math.random().toString(36).slice(2)}`;
const TEN = { name: "test-ten", max: 10 };

describe("attempt throttling", () => {
  it("counts attempts begun together before any is checked: the eleventh of a burst is refused", async () => {
    const key = `burst:${unique()}`;
    // Twenty guesses arrive at once: each begins before the first one's slow check has answered.
    const begun = await Promise.all(Array.from({ length: 20 }, () => beginAttempt(TEN, key)));
    expect(begun.filter(Boolean)).toHaveLength(10);
    expect(await beginAttempt(TEN, key)).toBe(false);
  });

  it("a success forgets the attempts; the window ends 15 minutes after its first attempt", async () => {
    const key = `window:${unique()}`;
    const start = Date.now();
    for (let i = 0; i < 9; i++) expect(await beginAttempt(TEN, key, start)).toBe(true);
    await clearFailures(TEN, key);
    for (let i = 0; i < 10; i++) expect(await beginAttempt(TEN, key, start + i * 60_000)).toBe(true);
    expect(await beginAttempt(TEN, key, start + 15 * 60_000 - 1)).toBe(false);
    expect(await beginAttempt(TEN, key, start + 15 * 60_000)).toBe(true);
  });

  it("the daily purge deletes the counters whose window ended, a batch per statement, and keeps the others", async () => {
    const { getDb } = await import("@/lib/db/client");
    const limit = { name: `purge-${unique()}`, max: 10 };
    for (let i = 0; i < 5; i++) await beginAttempt(limit, `ended-${i}`, Date.now() - 16 * 60_000);
    await beginAttempt(limit, "current");
    expect(await purgeEndedAttemptCounters(new Date(), 2)).toBeGreaterThanOrEqual(5);
    expect((await getDb().attemptCounter.findMany({ where: { name: limit.name } })).map((c) => c.key)).toEqual(["current"]);
  });
});

describe("sign-in limits (sign-in-throttle.ts)", () => {
  it("an account's failures count per client address: a stranger's ten do not throttle the owner elsewhere", async () => {
    const email = `owner-${unique()}@example.com`;
    const stranger = `198.51.100.${Math.floor(Math.random() * 200)}-${unique()}`;
    const owner = `203.0.113.7-${unique()}`;
    for (let i = 0; i < SIGN_IN_FAILURES_PER_ACCOUNT_AND_ADDRESS; i++) expect(await beginPasswordAttempt(email, stranger)).toBe(true);
    expect(await beginPasswordAttempt(email, stranger)).toBe(false);
    expect(await beginPasswordAttempt(email, owner)).toBe(true);
    await passwordAttemptSucceeded(email, owner);
    // A password reset forgets the account's failures from every address.
    await forgetSignInFailures(email);
    expect(await beginPasswordAttempt(email, stranger)).toBe(true);

    // The table names neither the address typed nor where it came from (docs/decisions.md).
    const { getDb } = await import("@/lib/db/client");
    const stored = await getDb().attemptCounter.findMany({ where: { name: { in: ["sign-in", "sign-in-address"] } } });
    expect(stored.length).toBeGreaterThan(0);
    for (const { key } of stored) for (const raw of [email, stranger, owner]) expect(key).not.toContain(raw);
  });

  it("one address trying many accounts is stopped at 30 failures; its successes take back only their own attempt", async () => {
    const address = `192.0.2.1-${unique()}`;
    for (let i = 0; i < SIGN_IN_FAILURES_PER_ADDRESS - 1; i++) expect(await beginPasswordAttempt(`spray-${i}-${unique()}@example.com`, address)).toBe(true);
    // The sprayer's own account, signed in correctly: it does not wipe out the 29 failures.
    const own = `own-${unique()}@example.com`;
    expect(await beginPasswordAttempt(own, address)).toBe(true);
    await passwordAttemptSucceeded(own, address);
    expect(await beginPasswordAttempt(`spray-last-${unique()}@example.com`, address)).toBe(true);
    expect(await beginPasswordAttempt(`spray-next-${unique()}@example.com`, address)).toBe(false);
    expect(await beginPasswordAttempt(own, address)).toBe(false);
    expect(await beginPasswordAttempt(`spray-next-${unique()}@example.com`, `${address}-other`)).toBe(true);
  });

  it("second factors and password checks: 10 wrong per account, then 429 rate_limited with Retry-After, without checking", async () => {
    const userId = `usr_${unique()}`;
    let checks = 0;
    const wrong = async () => (checks++, null);
    for (let i = 0; i < SECOND_FACTOR_FAILURES_PER_ACCOUNT; i++) expect(await throttledSecondFactor(userId, wrong)).toBeNull();
    const refused = await throttledSecondFactor(userId, async () => (checks++, "totp")).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: "rate_limited", status: 429 });
    expect(Number((refused as AppError).headers["Retry-After"])).toBeGreaterThan(14 * 60);
    expect(Number((refused as AppError).headers["Retry-After"])).toBeLessThanOrEqual(15 * 60);
    expect(checks).toBe(10);
    // The password check of the same account counts on its own.
    expect(await throttledPasswordCheck(userId, async () => true)).toBe(true);
  });

  it("a right answer forgets the account's wrong ones", async () => {
    const userId = `usr_${unique()}`;
    for (let i = 0; i < 9; i++) expect(await throttledPasswordCheck(userId, async () => false)).toBe(false);
    expect(await throttledPasswordCheck(userId, async () => true)).toBe(true);
    for (let i = 0; i < 10; i++) expect(await throttledPasswordCheck(userId, async () => false)).toBe(false);
    await expect(throttledPasswordCheck(userId, async () => true)).rejects.toMatchObject({ code: "rate_limited" });
  });
});

describe("sign-in limits shared through the database", () => {
  it("hold across a restart: the process started over the same database gets no new budget", async () => {
    const userId = `usr_${unique()}`;
    const email = `restart-${unique()}@example.com`;
    const address = `203.0.113.9-${unique()}`;
    for (let i = 0; i < 10; i++) expect(await throttledPasswordCheck(userId, async () => false)).toBe(false);
    for (let i = 0; i < 10; i++) expect(await beginPasswordAttempt(email, address)).toBe(true);

    // A restart (a deploy, a crash): the process's services, its connection among them, end; new ones start.
    const { createServices, disposeServices } = await import("@/lib/services");
    await disposeServices();
    createServices();

    let checked = false;
    await expect(throttledPasswordCheck(userId, async () => (checked = true))).rejects.toMatchObject({ code: "rate_limited" });
    expect(checked).toBe(false);
    expect(await beginPasswordAttempt(email, address)).toBe(false);
  });

  it.runIf(inject("testDb") === "postgres")(
    "two instances on one PostgreSQL database share one budget: of 20 wrong passwords sent at once, 10 are checked",
    async () => {
      const userId = `usr_${unique()}`;
      const instances = [startInstance(userId, 10), startInstance(userId, 10)];
      await Promise.all(instances.map((i) => i.ready));
      for (const i of instances) i.go();
      const answers = await Promise.all(instances.map((i) => i.answer));
      expect(answers.reduce((sum, a) => sum + a.checks, 0)).toBe(10);
      expect(answers.reduce((sum, a) => sum + a.refused, 0)).toBe(10);
      // And this process, a third on the same database, is refused too.
      await expect(throttledPasswordCheck(userId, async () => true)).rejects.toMatchObject({ code: "rate_limited" });
    },
  );
});

const ROOT = path.resolve(import.meta.dirname, "../..");

/** A process of its own on this test's database (tests/session/fixtures/password-checks.ts), its attempts held until `go`. */
function startInstance(userId: string, attempts: number) {
  // node with tsx's loader rather than the tsx CLI, which would put a second process between us and the instance.
  const child = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "tests/session/fixtures/password-checks.ts")], {
    cwd: ROOT,
    env: { ...process.env, USER_ID: userId, ATTEMPTS: String(attempts) },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  const failed = async () => {
    throw new Error(`the instance exited with ${await exited}: ${stderr}`);
  };
  const ready = Promise.race([new Promise<void>((resolve) => child.stdout.on("data", (d) => (stdout += d).includes("ready\n") && resolve())), failed()]);
  const answer = exited.then((code) => {
    if (code !== 0) throw new Error(`the instance exited with ${code}: ${stderr}`);
    return JSON.parse(stdout.trim().split("\n").pop()!) as { checks: number; refused: number };
  });
  return { ready, answer, go: () => child.stdin.end("go\n") };
}
