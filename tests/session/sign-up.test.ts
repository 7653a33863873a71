/** Sign-up creates a new account: two sign-ups with one email at the same moment make one account, not one with two workspaces. */
import { beforeAll, describe, expect, it } from "vitest";
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
