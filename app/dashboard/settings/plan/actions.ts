"use server";
import { runAsPrincipal } from "@/lib/dashboard/action-result";
import { changePlan } from "@/lib/workspaces/plan";

export async function subscribePro() {
  return runAsPrincipal((p) => changePlan(p, "pro"), "/dashboard");
}

export async function cancelPlan() {
  return runAsPrincipal((p) => changePlan(p, null), "/dashboard");
}
