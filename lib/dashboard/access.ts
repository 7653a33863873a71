/**
 * What the signed-in member may see, for deciding what a page shows: the same predicates the
 * tools authorize with (a button hidden here is a call the tool would refuse). Pure checks, no
 * data: pages read data from lib/read-models and write through tools (lib/dashboard/tool-action.ts).
 */
import type { Platform } from "@/lib/generated/prisma/enums";
import { oauthAppId } from "@/lib/platforms";
import { getConfig } from "@/lib/services";

export { can } from "@/lib/auth/authorize";
export { roleAllows } from "@/lib/auth/roles";
export { planStatus } from "@/lib/workspaces/plan";

/** The configured AI provider and model (null when none is), for the Assistant page's wording. */
export function aiProvider() {
  return getConfig().ai;
}

/** Whether the platform's app for connecting live ad accounts (OAuth) is configured. */
export function oauthAppConfigured(platform: Platform): boolean {
  return oauthAppId(platform) !== null;
}
