import { authorizePermission } from "@/lib/auth/authorize-permission";
import type { Principal } from "@/lib/auth/principal";
import { getDb } from "@/lib/db/client";
import { conflict, notFound } from "@/lib/errors";
import { setPlan, type Plan } from "./workspaces";

/**
 * Where a workspace stands: on the free trial (dashboard only), its trial ended,
 * on the paid plan, or lapsed (was paid, now not). API keys work only on "pro".
 */
export type PlanState = "trial" | "trial_ended" | "pro" | "lapsed";

export interface PlanStatus {
  state: PlanState;
  plan: string | null;
  trialEndsAt: string | null;
  /** Days left on the trial, counting the current one (14 on day 0 of a 14-day trial, 1 on its last day), null off trial. */
  trialDaysLeft: number | null;
  apiAccess: boolean;
  dashboardAccess: boolean;
}

/** The plan state of a workspace, from its plan and trial end. */
export function planStatus(workspace: { plan: string | null; trialEndsAt: Date | null }, now = new Date()): PlanStatus {
  const { plan, trialEndsAt } = workspace;
  const state: PlanState = plan ? "pro" : trialEndsAt ? (trialEndsAt > now ? "trial" : "trial_ended") : "lapsed";
  return {
    state,
    plan,
    trialEndsAt: !plan && trialEndsAt ? trialEndsAt.toISOString() : null,
    trialDaysLeft: state === "trial" ? Math.max(1, Math.ceil((trialEndsAt!.getTime() - now.getTime()) / 86_400_000)) : null,
    apiAccess: state === "pro",
    dashboardAccess: state === "pro" || state === "trial",
  };
}

/** The active workspace's plan status. */
export async function getPlanStatus(principal: Principal): Promise<PlanStatus> {
  const workspace = await getDb().workspace.findUnique({ where: { id: principal.workspaceId }, select: { plan: true, trialEndsAt: true } });
  if (!workspace) throw notFound("Workspace");
  return planStatus(workspace);
}

/**
 * Moves the workspace along trial -> pro -> lapsed -> pro (billing itself is out of scope).
 * "pro" subscribes from any unpaid state; null cancels a paid plan. Owners and admins only.
 */
export async function changePlan(principal: Principal, plan: Plan | null): Promise<PlanStatus> {
  authorizePermission(principal, "billing.manage");
  const current = await getPlanStatus(principal);
  if (plan && current.state === "pro") throw conflict("This workspace is already on the Pro plan");
  if (!plan && current.state !== "pro") throw conflict("There is no paid plan to cancel");
  await setPlan(principal.workspaceId, plan);
  return getPlanStatus(principal);
}
