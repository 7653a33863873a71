"use server";
import { runTool } from "@/lib/dashboard/tool-action";

export async function subscribePro() {
  return runTool("change_plan", { plan: "pro" }, "/dashboard");
}

export async function cancelPlan() {
  return runTool("change_plan", { plan: null }, "/dashboard");
}
