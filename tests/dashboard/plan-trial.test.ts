/** Cancelling Pro during the free trial returns the workspace to the rest of its trial (issue 17). */
import { beforeAll, describe, expect, it } from "vitest";
import { useFreshDatabase } from "../helpers/in-process-db";

beforeAll(async () => {
  await useFreshDatabase("plan_trial");
});

describe("plan changes during the trial", () => {
  it("Pro then cancel keeps the trial's days and the dashboard", async () => {
    const { signUp } = await import("@/lib/session/accounts");
    const { principalForUser } = await import("@/lib/session/principal");
    const { changePlan } = await import("@/lib/workspaces/plan");
    const { userId } = await signUp({
      name: "Trial",
      email: `trial-${Date.now()}@example.com`,
      password: "correct horse battery staple",
      workspaceName: "Trial Co",
    });
    const principal = (await principalForUser(userId))!;
    expect(await changePlan(principal, "pro")).toMatchObject({ state: "pro", trialEndsAt: null });
    const after = await changePlan(principal, null);
    expect(after).toMatchObject({ state: "trial", dashboardAccess: true, apiAccess: false, trialDaysLeft: 14 });
  });

  it("a workspace that never had a trial lapses when Pro is cancelled", async () => {
    const { createWorkspace } = await import("@/lib/workspaces/workspaces");
    const { principalForUser } = await import("@/lib/session/principal");
    const { changePlan } = await import("@/lib/workspaces/plan");
    const { ownerUserId } = await createWorkspace({ name: "Paid", plan: "pro", ownerEmail: `paid-${Date.now()}@example.com` });
    const principal = (await principalForUser(ownerUserId))!;
    expect(await changePlan(principal, null)).toMatchObject({ state: "lapsed", dashboardAccess: false });
  });
});
