import type { Role } from "@/lib/generated/prisma/enums";

/**
 * Role permissions. Owners and admins may do everything; editors everything but
 * launching (spending money), deleting and workspace administration; viewers only read.
 */
export const PERMISSIONS = [
  "account.read",
  "library.read",
  "library.write",
  "library.delete",
  "uploads.write",
  "webhooks.manage",
  "team.manage",
  "billing.manage",
  "review.comment",
  "review.approve",
  "review.share",
  "ads.read",
  "leads.export",
  "ads.write",
  "ads.launch",
  "ads.delete",
  "comments.moderate",
  "rules.manage",
  "imports.run",
  "ai.use",
  "tasks.read",
  "tasks.write",
] as const;

export type Permission = (typeof PERMISSIONS)[number];

// Viewers read but do not see people's details: leads.export (lead submissions' names and emails, read, exported or pulled) is left out.
const READ: Permission[] = ["account.read", "library.read", "ads.read", "tasks.read"];
const ADMIN_ONLY: Permission[] = ["webhooks.manage", "team.manage", "billing.manage"];
const EDITOR_DENIED: Permission[] = [...ADMIN_ONLY, "ads.launch", "ads.delete", "library.delete"];

export const ROLE_PERMISSIONS: Record<Role, ReadonlySet<Permission>> = {
  owner: new Set(PERMISSIONS),
  admin: new Set(PERMISSIONS),
  editor: new Set(PERMISSIONS.filter((p) => !EDITOR_DENIED.includes(p))),
  viewer: new Set(READ),
};

export const ROLES: Role[] = ["owner", "admin", "editor", "viewer"];

export function roleAllows(role: Role, permission: Permission): boolean {
  return ROLE_PERMISSIONS[role].has(permission);
}
