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

/** Builds the Principal of an API key (with its scopes) or a dashboard session (scopes null) from a MemberRow. */
export function principalFromRow(
  row: MemberRow,
  who: { kind: Principal["kind"]; userId: string; keyId: string | null; scopes: Scope[] | null },
): Principal {
  return {
    ...who,
    userName: row.userName,
    userEmail: row.userEmail,
    twoFactorEnabled: row.twoFactorEnabled,
    workspaceId: row.workspaceId,
    role: row.role,
    folderIds: row.folderIds && row.folderIds.length ? row.folderIds : null,
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
