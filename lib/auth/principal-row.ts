import type { Role } from "@/lib/generated/prisma/enums";
import type { Principal } from "./principal";
import type { Scope } from "./scopes";

/** The columns a principal is built from: the member, their workspace and their folder access. */
export interface MemberRow {
  workspaceId: string;
  workspaceName: string;
  workspaceStatus: "active" | "archived";
  plan: string | null;
  trialEndsAt: Date | null;
  credits: number;
  twoFactorRequiredFor: string[];
  userName: string;
  userEmail: string;
  twoFactorEnabled: boolean;
  role: Role;
  folderIds: string[] | null;
}

/**
 * The select list every principal query shares (session, API key, OAuth token), for `queryRows`:
 * `w` is the workspace, `u` the user and `m` their membership (a LEFT JOIN where the member may
 * have left: then `role` is null). The trial end comes back as epoch milliseconds.
 */
export const MEMBER_COLUMNS = `
  w.name AS "workspaceName", w.status::text AS "workspaceStatus", w.plan,
  extract(epoch FROM w."trialEndsAt") * 1000 AS "trialEndsAtMs",
  w.credits, w."twoFactorRequiredFor",
  u.name AS "userName", u.email AS "userEmail", u."twoFactorEnabled",
  m.role::text AS role,
  (SELECT array_agg(mf."folderId") FROM membership_folders mf WHERE mf."membershipId" = m.id) AS "folderIds"`;

/** A row selected with MEMBER_COLUMNS (plus the workspace id), as the driver returns it. */
export type MemberColumnsRow = Omit<MemberRow, "trialEndsAt" | "role"> & { trialEndsAtMs: number | string | null; role: Role | null };

/** Epoch milliseconds (a number or, from some drivers, a numeric string) as a Date. */
export const dateFromMs = (ms: number | string | null): Date | null => (ms === null ? null : new Date(Number(ms)));

/** The MemberRow of a MEMBER_COLUMNS row whose member is known to be in the workspace. */
export function memberRowOf({ trialEndsAtMs, ...row }: MemberColumnsRow & { role: Role }): MemberRow {
  return { ...row, trialEndsAt: dateFromMs(trialEndsAtMs) };
}

/** Builds the Principal of an API key (with its scopes) or a dashboard session (scopes null) from a MemberRow. */
export function principalFromRow(row: MemberRow, who: { kind: Principal["kind"]; userId: string; keyId: string | null; scopes: Scope[] | null }): Principal {
  return {
    ...who,
    userName: row.userName,
    userEmail: row.userEmail,
    twoFactorEnabled: row.twoFactorEnabled,
    workspaceId: row.workspaceId,
    role: row.role,
    folderIds: row.folderIds?.length ? row.folderIds : null,
    workspace: {
      name: row.workspaceName,
      status: row.workspaceStatus,
      plan: row.plan,
      trialEndsAt: row.trialEndsAt,
      credits: row.credits,
      twoFactorRequiredFor: row.twoFactorRequiredFor,
    },
  };
}
