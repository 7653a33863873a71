/** A wrong password is an answer to the visitor, not a server fault: the server log stays quiet (issue 17). */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendAdminCommand } from "@/lib/admin/socket";
import { startServer, type TestServer } from "../helpers/server";
import { signIn } from "./session";

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ env: { LOG_LEVEL: "info" } });
});
afterAll(async () => {
  await server?.stop();
});

describe("sign-in failures in the server log", () => {
  it("a wrong password writes no stack trace", async () => {
    const email = `log-${Date.now()}@example.com`;
    const created = await sendAdminCommand(server.dataDir, ["workspace", "create", "--name", "Log", "--owner-email", email]);
    expect(created.ok).toBe(true);
    expect((await sendAdminCommand(server.dataDir, ["user", "password", "--email", email, "--password", "correct horse battery"])).ok).toBe(true);
    const before = server.output().length;
    const wrong = await signIn(email, "not the password", "", server.url);
    expect(wrong.signedIn).toBe(false);
    const right = await signIn(email, "correct horse battery", "", server.url);
    expect(right.signedIn).toBe(true);
    await new Promise((r) => setTimeout(r, 300));
    const logged = server.output().slice(before);
    expect(logged).not.toMatch(/CredentialsSignin|\n\s+at /);
  });
});
