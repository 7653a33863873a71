import { AppError } from "@/lib/errors";
import type { Principal } from "./principal";
import { roleAllows, type Permission } from "./roles";

/**
 * Throws 403 `forbidden` unless the principal's role has the permission. For dashboard-only
 * actions (team, billing, keys) that no API scope names: scoped keys are refused outright.
 */
export function authorizePermission(principal: Principal, permission: Permission): void {
  if (!roleAllows(principal.role, permission)) {
    throw new AppError("forbidden", `Your role (${principal.role}) lacks the permission "${permission}" needed for this action`);
  }
  if (principal.scopes !== null) {
    throw new AppError("forbidden", "This action needs an unscoped API key or a dashboard session");
  }
}
