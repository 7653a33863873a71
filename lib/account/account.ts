import { z } from "zod";
import type { Principal } from "@/lib/auth/principal";

export const AccountSchema = z
  .object({
    id: z.string().describe("Id of the key's creator (not the workspace owner)"),
    name: z.string().describe("Account name"),
    email: z.string().describe("Account email"),
    plan: z.string().nullable().describe("The workspace's current plan; null when not on a plan"),
    credits: z.number().int().nullable().describe("Remaining credits; null for keys created by non-owner members"),
    trialEndsAt: z.string().datetime().nullable().describe("Trial end; null when on a plan"),
  })
  .meta({ id: "Account" });

export type Account = z.infer<typeof AccountSchema>;

/** The Account of the spec: the acting user, seen through their workspace's plan. */
export function getAccount(principal: Principal): Account {
  const { workspace } = principal;
  return {
    id: principal.userId,
    name: principal.userName,
    email: principal.userEmail,
    plan: workspace.plan,
    credits: principal.role === "owner" ? workspace.credits : null,
    trialEndsAt: workspace.plan ? null : (workspace.trialEndsAt?.toISOString() ?? null),
  };
}
