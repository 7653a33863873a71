import { z } from "zod";
import { AccountSchema, getAccount } from "@/lib/account/account";
import { changePlan } from "@/lib/workspaces/plan";
import { PLANS } from "@/lib/workspaces/workspaces";
import { defineTool } from "../types";

const PlanStatusSchema = z.object({
  state: z.enum(["trial", "trial_ended", "pro", "lapsed"]),
  plan: z.string().nullable(),
  trialEndsAt: z.string().nullable(),
  trialDaysLeft: z.number().int().nullable(),
  apiAccess: z.boolean(),
  dashboardAccess: z.boolean(),
});

export const accountTools = [
  defineTool({
    name: "get_account",
    title: "Get account",
    description: "The account behind the API key: who it acts as, the workspace's plan, credits and trial end (same as GET /api/v1/me).",
    category: "account",
    capability: "account.read",
    readOnly: true,
    destructive: false,
    input: z.strictObject({}),
    output: z.object({ account: AccountSchema }),
    handler: async (principal) => ({ account: getAccount(principal) }),
    rest: {
      method: "GET",
      path: "/api/v1/me",
      operationId: "getMe",
      summary: "The account behind the API key",
      tag: "Account",
      status: 200,
      successDescription: "The account",
    },
  }),
  defineTool({
    name: "change_plan",
    title: "Change plan",
    description:
      'Subscribes the workspace to the Pro plan (plan: "pro", from the trial or a lapsed plan) or cancels it (plan: null; API keys then stop working). Billing itself is outside the service.',
    category: "account",
    capability: "billing.manage",
    readOnly: false,
    destructive: true,
    input: z.strictObject({ plan: z.enum(PLANS).nullable().describe('"pro" to subscribe, null to cancel') }),
    output: z.object({ status: PlanStatusSchema }),
    handler: async (principal, input) => ({ status: await changePlan(principal, input.plan) }),
  }),
];
