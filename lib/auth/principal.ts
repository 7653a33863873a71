import type { Role } from "@/lib/generated/prisma/enums";
import type { Scope } from "./scopes";

/** Who is acting, in which workspace, with what limits. Built from an API key or a dashboard session. */
export interface Principal {
  kind: "api_key" | "session";
  /** The API key's id (null for dashboard sessions). */
  keyId: string | null;
  userId: string;
  userName: string;
  userEmail: string;
  twoFactorEnabled: boolean;
  workspaceId: string;
  role: Role;
  /** null: unscoped (everything the role allows). */
  scopes: Scope[] | null;
  /** null: every folder; otherwise only these folders' library items and uploads. */
  folderIds: string[] | null;
  workspace: {
    name: string;
    status: "active" | "archived";
    plan: string | null;
    trialEndsAt: Date | null;
    credits: number;
    twoFactorRequiredFor: string[];
  };
}
