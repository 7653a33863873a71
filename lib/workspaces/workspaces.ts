import { getDb } from "@/lib/db/client";
import { notFound } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { createNewUser, ensureUser } from "@/lib/team/users";
import { recordOpeningGrant, topUpCredits } from "@/lib/ai/credits";

export const PLANS = ["pro"] as const;
export type Plan = (typeof PLANS)[number];
export const TRIAL_DAYS = 14;
/** Credits a paid plan grants each workspace (spent by token-consuming tools). */
export const PLAN_CREDITS: Record<Plan, number> = { pro: 10_000 };

export interface CreateWorkspaceInput {
  name: string;
  plan: Plan | null;
  ownerEmail?: string;
  ownerName?: string;
  ownerPasswordHash?: string;
  /** The owner must be a new user (sign-up): an existing email is a `conflict`, not a second workspace of theirs. */
  ownerIsNew?: boolean;
  /** The new owner's address is proven (a Google or GitHub sign-in that says so); only with `ownerIsNew`. */
  ownerEmailVerified?: boolean;
}

/** Creates a workspace with its owner (a new or existing user), on a plan or on a 14-day trial. */
export async function createWorkspace(input: CreateWorkspaceInput): Promise<{ workspaceId: string; ownerUserId: string }> {
  const db = getDb();
  const workspaceId = newId("ws");
  return db.$transaction(async (tx) => {
    const ownerInput = { email: input.ownerEmail ?? `owner+${workspaceId}@adloom.local`, name: input.ownerName, passwordHash: input.ownerPasswordHash };
    const owner = input.ownerIsNew ? await createNewUser(tx, { ...ownerInput, emailVerified: input.ownerEmailVerified }) : await ensureUser(tx, ownerInput);
    await tx.workspace.create({
      data: {
        id: workspaceId,
        name: input.name,
        plan: input.plan,
        credits: input.plan ? PLAN_CREDITS[input.plan] : 0,
        trialEndsAt: input.plan ? null : new Date(Date.now() + TRIAL_DAYS * 86_400_000),
      },
    });
    await tx.membership.create({ data: { id: newId("mem"), workspaceId, userId: owner.id, role: "owner" } });
    if (input.plan) await recordOpeningGrant(tx, workspaceId, PLAN_CREDITS[input.plan], `plan:${input.plan}`);
    return { workspaceId, ownerUserId: owner.id };
  });
}

/** Moves a workspace onto a plan, or off it (API access then answers 402). */
export async function setPlan(workspaceId: string, plan: Plan | null): Promise<void> {
  const db = getDb();
  const workspace = await db.workspace.findUnique({ where: { id: workspaceId } });
  if (!workspace) throw notFound("Workspace");
  await db.$transaction(async (tx) => {
    // The trial's end is kept: cancelling Pro before it returns the workspace to the rest of its trial.
    await tx.workspace.update({ where: { id: workspaceId }, data: { plan } });
    // Subscribing tops the AI credits up to the plan's allowance (a ledger grant of the difference).
    if (plan) await topUpCredits(tx, workspaceId, PLAN_CREDITS[plan], `plan:${plan}`);
  });
}

/** Archives a workspace: its keys then answer 409 `workspace_changed`. */
export async function archiveWorkspace(workspaceId: string): Promise<void> {
  const { count } = await getDb().workspace.updateMany({ where: { id: workspaceId }, data: { status: "archived" } });
  if (count === 0) throw notFound("Workspace");
}

/** Marks the permissions whose actions need the acting user to have two-factor authentication (empty: none). */
export async function requireTwoFactorFor(workspaceId: string, permissions: string[]): Promise<void> {
  const { count } = await getDb().workspace.updateMany({ where: { id: workspaceId }, data: { twoFactorRequiredFor: permissions } });
  if (count === 0) throw notFound("Workspace");
}
