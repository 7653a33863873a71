import { describe, expect, it } from "vitest";
import { planStatus } from "./plan";

const now = new Date("2026-11-22T12:00:00Z");
const days = (n: number) => new Date(now.getTime() + n * 86_400_000);

describe("plan state", () => {
  it("trial: dashboard yes, API no, days left counted down", () => {
    expect(planStatus({ plan: null, trialEndsAt: days(14) }, now)).toMatchObject({
      state: "trial",
      apiAccess: false,
      dashboardAccess: true,
      trialDaysLeft: 14,
    });
    // Day 0 of a 14-day trial, a minute after it started, still has 14 days; the last day counts as 1.
    expect(planStatus({ plan: null, trialEndsAt: days(14 - 1 / 1440) }, now)).toMatchObject({ trialDaysLeft: 14 });
    expect(planStatus({ plan: null, trialEndsAt: days(0.5) }, now)).toMatchObject({ state: "trial", trialDaysLeft: 1 });
  });
  it("trial ended, pro and lapsed", () => {
    expect(planStatus({ plan: null, trialEndsAt: days(-1) }, now)).toMatchObject({ state: "trial_ended", apiAccess: false, dashboardAccess: false });
    expect(planStatus({ plan: "pro", trialEndsAt: null }, now)).toMatchObject({ state: "pro", apiAccess: true, dashboardAccess: true, trialEndsAt: null });
    expect(planStatus({ plan: null, trialEndsAt: null }, now)).toMatchObject({ state: "lapsed", apiAccess: false, dashboardAccess: false });
  });
  it("Pro keeps the trial's end: cancelling it during the trial returns to the trial", () => {
    expect(planStatus({ plan: "pro", trialEndsAt: days(10) }, now)).toMatchObject({ state: "pro", trialEndsAt: null, trialDaysLeft: null });
    expect(planStatus({ plan: null, trialEndsAt: days(10) }, now)).toMatchObject({ state: "trial", dashboardAccess: true, trialDaysLeft: 10 });
  });
});
