import type { Principal } from "@/lib/auth/principal";
import { getDb } from "@/lib/db/client";
import type { PerformanceGoal } from "./labels";

/** The workspace's primary goal (CPA until set). */
export async function goalOf(workspaceId: string): Promise<PerformanceGoal> {
  const row = await getDb().performanceSetting.findUnique({ where: { workspaceId } });
  return row?.goal === "roas" ? "roas" : "cpa";
}

export async function getPerformanceGoal(principal: Principal): Promise<{ goal: PerformanceGoal }> {
  return { goal: await goalOf(principal.workspaceId) };
}

/** Sets the goal; labels follow at the next hourly rollup. */
export async function setPerformanceGoal(principal: Principal, input: { goal: PerformanceGoal }): Promise<{ goal: PerformanceGoal }> {
  await getDb().performanceSetting.upsert({
    where: { workspaceId: principal.workspaceId },
    create: { workspaceId: principal.workspaceId, goal: input.goal },
    update: { goal: input.goal },
  });
  return { goal: input.goal };
}
