import { AppError } from "@/lib/errors";
import { CAPABILITIES, type CapabilityId } from "./capabilities";
import type { Principal } from "./principal";
import { roleAllows } from "./roles";

/** Throws 403 `forbidden` naming what is missing, or `two_factor_required`, unless the principal may use the capability. */
export function authorize(principal: Principal, capabilityId: CapabilityId): void {
  const capability = CAPABILITIES[capabilityId];
  if (!roleAllows(principal.role, capability.permission)) {
    throw new AppError("forbidden", `Your role (${principal.role}) lacks the permission "${capability.permission}" needed for this action`);
  }
  if (principal.scopes !== null) {
    if (capability.scopes === "unscoped") {
      throw new AppError("forbidden", "This action needs an unscoped API key; this key is limited to scopes " + principal.scopes.join(", "));
    }
    const missing = capability.scopes.filter((s) => !principal.scopes!.includes(s));
    if (missing.length) {
      throw new AppError("forbidden", `This API key lacks the scope${missing.length > 1 ? "s" : ""} ${missing.map((s) => `"${s}"`).join(", ")}`);
    }
  }
  if (!principal.twoFactorEnabled && principal.workspace.twoFactorRequiredFor.includes(capability.permission)) {
    throw new AppError(
      "two_factor_required",
      `This workspace requires two-factor authentication for "${capability.permission}"; the key's creator has not enabled it`,
    );
  }
}

/** Whether the principal may use the capability (no throw). */
export function can(principal: Principal, capabilityId: CapabilityId): boolean {
  try {
    authorize(principal, capabilityId);
    return true;
  } catch {
    return false;
  }
}
