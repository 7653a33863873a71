import { CAPABILITIES } from "./capabilities";
import { PERMISSIONS, ROLE_PERMISSIONS, ROLES } from "./roles";
import { SCOPES, SCOPE_DESCRIPTIONS } from "./scopes";

/** docs/permissions.md, rendered from the tables in code (a test keeps the file in step). */
export function renderPermissionsDoc(): string {
  const lines: string[] = [
    "# Permissions",
    "",
    "<!-- Generated from lib/auth/{capabilities,roles,scopes}.ts by `npm run docs:permissions`; do not edit by hand. -->",
    "",
    "Every request acts as a **principal**: an API key (bound to one workspace, acting with its creator's role,",
    "narrowed by its scopes) or a dashboard session. An action is allowed when all of these hold:",
    "",
    "1. the creator's **role** has the action's permission;",
    '2. for a **scoped** key, the key carries every scope the action names ("any": no scope needed;',
    '   "unscoped keys only": workspace administration, which no scope names);',
    "3. if the workspace requires **two-factor** for that permission, the key's creator has it enabled",
    "   (else 403 `two_factor_required`).",
    "",
    "A refusal is 403 `forbidden` naming the missing permission or scope. Folder-scoped members additionally see",
    "only their folders' (and subfolders') library items and uploads. Media downloads (`/api/media/...`) are",
    "authorized by ownership of the object, not by scope.",
    "",
    "## Actions",
    "",
    "| action | endpoint or capability | role permission | scopes a scoped key needs |",
    "|---|---|---|---|",
  ];
  for (const [id, c] of Object.entries(CAPABILITIES)) {
    const scopes = c.scopes === "unscoped" ? "unscoped keys only" : c.scopes.length ? c.scopes.map((s) => `\`${s}\``).join(" + ") : "any";
    lines.push(`| \`${id}\` | ${c.summary} | \`${c.permission}\` | ${scopes} |`);
  }
  lines.push("", "## Roles", "", `| permission | ${ROLES.join(" | ")} |`, `|---|${ROLES.map(() => "---").join("|")}|`);
  for (const p of PERMISSIONS) lines.push(`| \`${p}\` | ${ROLES.map((r) => (ROLE_PERMISSIONS[r].has(p) ? "yes" : "—")).join(" | ")} |`);
  lines.push("", "## Scopes", "", "| scope | gates |", "|---|---|");
  for (const s of SCOPES) lines.push(`| \`${s}\` | ${SCOPE_DESCRIPTIONS[s]} |`);
  lines.push(
    "",
    "A key created with scopes may carry only scopes its creator's role can use; an unscoped key gets everything its",
    "creator can do. Scopes cannot be widened after creation. Revoking a key takes effect on the next request.",
    "",
  );
  return lines.join("\n");
}
