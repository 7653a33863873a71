export { getPlanStatus, type PlanState } from "@/lib/workspaces/plan";
export { PLAN_CREDITS } from "@/lib/workspaces/workspaces";
