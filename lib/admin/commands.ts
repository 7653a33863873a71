import { parseArgs } from "node:util";
import { createApiKey, revokeApiKey } from "@/lib/api-keys/api-keys";
import { getDb } from "@/lib/db/client";
import { AppError, badRequest } from "@/lib/errors";
import type { Role } from "@/lib/generated/prisma/enums";
import { createFolder } from "@/lib/folders/folders";
import { PERMISSIONS, ROLES } from "@/lib/auth/roles";
import { addMember } from "@/lib/team/members";
import { resetPassword } from "@/lib/session/accounts";
import { removeTwoFactorByOperator } from "@/lib/session/two-factor";
import { listOutbox } from "@/lib/mail/send-mail";
import { seedLibrary } from "./seed-library";
import { commandName } from "./cli-dispatch";
import { connectAdAccount, disconnectAdAccount, listConnections } from "@/lib/ad-accounts/connections";
import { resealAllCredentials } from "@/lib/platforms";
import { resealStorageCredentials } from "@/lib/import/credentials";
import { resealPendingGrants } from "@/lib/ad-accounts/pending-grants";
import type { Platform } from "@/lib/generated/prisma/enums";
import { runAutomationNow } from "@/lib/automation/run-now";
import { advanceSandbox, MAX_ADVANCE_HOURS, seedSandboxLeads } from "@/lib/platforms/sandbox/operator";
import { pullWorkspaceLeads } from "@/lib/leads/pull";
import { archiveWorkspace, createWorkspace, requireTwoFactorFor, setPlan, type Plan } from "@/lib/workspaces/workspaces";

/**
 * The operator CLI's commands (see ../shared/notes/operator-contract.md). The same
 * function runs in the CLI process, or inside the server that owns the embedded
 * database when the CLI hands a command over to it.
 */
type Flags = Record<string, string | undefined>;

const COMMANDS: Record<string, { flags: string[]; run: (f: Flags) => Promise<object> }> = {
  "workspace create": {
    flags: ["name", "plan", "owner-email"],
    run: async (f) => createWorkspace({ name: required(f, "name"), plan: plan(f.plan ?? "pro"), ownerEmail: f["owner-email"] }),
  },
  "workspace archive": {
    flags: ["workspace"],
    run: async (f) => {
      await archiveWorkspace(required(f, "workspace"));
      return { ok: true };
    },
  },
  "workspace two-factor": {
    flags: ["workspace", "permissions"],
    run: async (f) => {
      const permissions = list(f.permissions);
      const unknown = permissions.filter((p) => !(PERMISSIONS as readonly string[]).includes(p));
      if (unknown.length) throw badRequest(`Unknown permission(s) ${unknown.join(", ")}; valid: ${PERMISSIONS.join(", ")}`);
      await requireTwoFactorFor(required(f, "workspace"), permissions);
      return { ok: true };
    },
  },
  "member add": {
    flags: ["workspace", "email", "role", "folders"],
    run: async (f) => {
      const { userId } = await addMember({
        workspaceId: required(f, "workspace"),
        email: email(required(f, "email")),
        role: role(required(f, "role")),
        folderIds: list(f.folders),
      });
      return { userId };
    },
  },
  "folder create": {
    flags: ["workspace", "name", "parent"],
    run: async (f) => createFolder({ workspaceId: required(f, "workspace"), name: required(f, "name"), parentId: f.parent }),
  },
  "key create": {
    flags: ["workspace", "user", "scopes", "name"],
    run: async (f) => {
      if (f.scopes !== undefined && list(f.scopes).length === 0) throw badRequest("--scopes needs at least one scope; omit it for an unscoped key");
      const { id, key } = await createApiKey({ workspaceId: required(f, "workspace"), userId: required(f, "user"), scopes: list(f.scopes), name: f.name });
      return { id, key };
    },
  },
  "key revoke": {
    flags: ["id"],
    run: async (f) => {
      await revokeApiKey(required(f, "id"), "any-workspace");
      return { ok: true };
    },
  },
  "mail list": {
    flags: ["to"],
    run: async (f) => listOutbox({ to: f.to }),
  },
  "user password": {
    flags: ["email", "password"],
    run: async (f) => resetPassword(email(required(f, "email")), required(f, "password")),
  },
  "user two-factor-off": {
    flags: ["email"],
    run: async (f) => removeTwoFactorByOperator(email(required(f, "email"))),
  },
  "library seed": {
    flags: ["workspace", "count", "folder", "from"],
    run: async (f) => seedLibrary({ workspaceId: required(f, "workspace"), count: Number(required(f, "count")), folderId: f.folder, fromFile: f.from }),
  },
  "creatives thumbnails": {
    flags: ["workspace"],
    run: async (f) => {
      const { backfillThumbnails } = await import("./backfill-thumbnails");
      return backfillThumbnails({ workspaceId: f.workspace });
    },
  },
  "backup create": {
    flags: ["out"],
    run: async (f) => {
      const { createBackup } = await import("@/lib/backup/backup");
      return createBackup(required(f, "out"));
    },
  },
  "backup restore": {
    flags: ["from"],
    run: async (f) => {
      const { restoreBackup } = await import("@/lib/backup/backup");
      return restoreBackup(required(f, "from"));
    },
  },
  "sandbox advance": {
    flags: ["workspace", "hours"],
    run: async (f) => {
      const hours = Number(required(f, "hours"));
      if (!Number.isInteger(hours) || hours < 1 || hours > MAX_ADVANCE_HOURS) {
        throw badRequest(`--hours must be a whole number from 1 to ${MAX_ADVANCE_HOURS}, got "${f.hours}"`);
      }
      return advanceSandbox(required(f, "workspace"), hours);
    },
  },
  "webhooks load-test": {
    flags: ["workspace", "count", "rate"],
    run: async (f) => {
      const { emitTestEventLoad } = await import("@/lib/webhooks/load-test");
      return emitTestEventLoad(required(f, "workspace"), Number(required(f, "count")), Number(f.rate ?? "100"));
    },
  },
  "automation run": {
    flags: ["workspace", "rule"],
    run: async (f) => runAutomationNow(required(f, "workspace"), f.rule?.trim() || undefined),
  },
  "sandbox comment": {
    flags: ["workspace", "ad", "message", "author"],
    run: async (f) => {
      const { postSandboxComment } = await import("@/lib/platforms/sandbox/operator");
      return postSandboxComment({
        workspaceId: required(f, "workspace"),
        adExternalId: required(f, "ad"),
        message: required(f, "message"),
        authorName: f.author,
      });
    },
  },
  "sandbox uncomment": {
    flags: ["workspace", "comment"],
    run: async (f) => {
      const { deleteSandboxCommentByAuthor } = await import("@/lib/platforms/sandbox/operator");
      return deleteSandboxCommentByAuthor({ workspaceId: required(f, "workspace"), commentExternalId: required(f, "comment") });
    },
  },
  "sandbox media": {
    flags: ["workspace"],
    run: async (f) => {
      const { sandboxMediaSessionsOf } = await import("@/lib/platforms/sandbox/operator");
      return sandboxMediaSessionsOf(required(f, "workspace"));
    },
  },
  "sandbox comments": {
    flags: ["workspace"],
    run: async (f) => {
      const { sandboxCommentsOf } = await import("@/lib/platforms/sandbox/operator");
      return sandboxCommentsOf(required(f, "workspace"));
    },
  },
  "moderation pull": {
    flags: ["workspace"],
    run: async (f) => {
      const { pullComments } = await import("@/lib/moderation/pull");
      return pullComments(f.workspace?.trim() || undefined);
    },
  },
  "performance rollup": {
    flags: ["workspace", "stop-after-chunks", "stop-before-events", "stop-before-test-actions"],
    run: async (f) => {
      const { runRollup } = await import("@/lib/performance/rollup");
      // The stop flags are drills: the run ends midway (insight chunks written / label changes recorded /
      // creative tests decided) as a killed process would.
      const stopAfter = f["stop-after-chunks"];
      if (stopAfter !== undefined && !/^\d+$/.test(stopAfter)) throw badRequest(`--stop-after-chunks must be a whole number, got "${stopAfter}"`);
      return runRollup({
        workspaceId: f.workspace?.trim() || undefined,
        crashAfterChunks: stopAfter === undefined ? undefined : Number(stopAfter),
        crashBeforeEvents: f["stop-before-events"] === "true",
        crashBeforeTestActions: f["stop-before-test-actions"] === "true",
      });
    },
  },
  "tasks digest": {
    flags: ["workspace", "now"],
    // The morning task.due digest of one workspace, now (or at --now), whatever the hour; still once per local day.
    run: async (f) => {
      const { runDueDigestNow } = await import("@/lib/tasks/due-digest");
      const now = f.now === undefined ? new Date() : new Date(f.now);
      if (f.now !== undefined && (!/^\d{4}-\d{2}-\d{2}T/.test(f.now) || Number.isNaN(now.getTime()))) {
        throw badRequest(`--now must be an ISO 8601 date and time such as 2030-03-01T09:00:00Z, got "${f.now}"`);
      }
      return runDueDigestNow(required(f, "workspace"), now);
    },
  },
  "sandbox leads": {
    flags: ["workspace", "count", "form", "timestamps", "fields"],
    run: async (f) => {
      const timestamps = f.timestamps ?? "spread";
      if (timestamps !== "spread" && timestamps !== "same") throw badRequest(`--timestamps must be spread or same, got "${timestamps}"`);
      return seedSandboxLeads({
        workspaceId: required(f, "workspace"),
        count: Number(required(f, "count")),
        formExternalId: f.form,
        sameTime: timestamps === "same",
        values: f.fields === undefined ? undefined : fieldValues(f.fields),
      });
    },
  },
  "leads pull": {
    flags: ["workspace", "limit"],
    run: async (f) => {
      const limit = f.limit === undefined ? undefined : Number(f.limit);
      if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) throw badRequest(`--limit must be a whole number of at least 1, got "${f.limit}"`);
      const workspaceId = required(f, "workspace");
      if (!(await getDb().workspace.findUnique({ where: { id: workspaceId }, select: { id: true } }))) throw new AppError("not_found", "Workspace not found");
      return pullWorkspaceLeads(workspaceId, { cap: limit });
    },
  },
  "server memory": {
    flags: [],
    // Live memory, not garbage waiting for the collector: a full collection first when the server runs
    // with --expose-gc (NODE_OPTIONS), as the benchmarks start it. Meaningful inside the server (over the socket).
    run: async () => {
      // `gc` is Node's global, defined only under --expose-gc.
      const collect = typeof gc === "function" ? gc : null;
      collect?.();
      const m = process.memoryUsage();
      return { collected: collect !== null, rss: m.rss, heapUsed: m.heapUsed, heapTotal: m.heapTotal, external: m.external, arrayBuffers: m.arrayBuffers };
    },
  },
  "adaccount connect": {
    flags: ["workspace", "platform", "account", "token", "page", "identity", "default"],
    run: async (f) => {
      const workspaceId = await existingWorkspace(required(f, "workspace"));
      const a = await connectAdAccount({
        workspaceId,
        platform: platform(required(f, "platform")),
        externalAccountId: required(f, "account"),
        accessToken: required(f, "token"),
        pageId: f.page,
        identityId: f.identity,
        makeDefault: bool(f.default, "default"),
      });
      return {
        adAccountId: a.id,
        platform: a.platform,
        externalId: a.externalAccountId,
        name: a.name,
        currency: a.currency,
        timeZone: a.timeZone,
        status: a.status,
      };
    },
  },
  "adaccount list": {
    flags: ["workspace"],
    run: async (f) => {
      const accounts = await listConnections(await existingWorkspace(required(f, "workspace")));
      return {
        adAccounts: accounts.map((a) => ({
          adAccountId: a.id,
          platform: a.platform,
          externalId: a.externalAccountId,
          mode: a.mode,
          status: a.status,
          default: a.isDefault,
        })),
      };
    },
  },
  "adaccount disconnect": {
    flags: ["id"],
    run: async (f) => {
      await disconnectAdAccount(null, required(f, "id"));
      return { ok: true };
    },
  },
  "credentials reseal": {
    flags: [],
    // After a CREDENTIALS_KEY rotation: seals every stored credential (ad accounts', storage connections' and the tokens held for a pending account choice) with the new key, so the old one can be dropped.
    run: async () => {
      const { keyId, ...adAccounts } = await resealAllCredentials();
      const storageConnections = await resealStorageCredentials();
      const pendingChoices = await resealPendingGrants();
      const parts = [adAccounts, storageConnections, pendingChoices];
      const unreadable = parts.flatMap((p) => p.unreadable);
      return {
        ok: unreadable.length === 0,
        keyId,
        checked: parts.reduce((n, p) => n + p.checked, 0),
        resealed: parts.reduce((n, p) => n + p.resealed, 0),
        unreadable,
        adAccounts,
        storageConnections,
        pendingChoices,
      };
    },
  },
  "plan set": {
    flags: ["workspace", "plan"],
    run: async (f) => {
      await setPlan(required(f, "workspace"), plan(required(f, "plan")));
      return { ok: true };
    },
  },
};

export const ADMIN_USAGE = `usage: npm run --silent admin -- <command> [flags]\ncommands: ${Object.entries(COMMANDS)
  .map(([name, c]) => `${name} ${c.flags.map((f) => `--${f}`).join(" ")}`)
  .join(" | ")}`;

function required(f: Flags, name: string): string {
  const value = f[name]?.trim();
  if (!value) throw badRequest(`--${name} is required`);
  return value;
}

function list(value: string | undefined): string[] {
  return (value ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}

function fieldValues(text: string): Record<string, string> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw badRequest("--fields must be a JSON object of field name to text");
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed) || Object.values(parsed).some((v) => typeof v !== "string")) {
    throw badRequest("--fields must be a JSON object of field name to text");
  }
  return parsed as Record<string, string>;
}

function platform(value: string): Platform {
  if (value === "platform_a" || value === "platform_b") return value;
  throw badRequest(`--platform must be platform_a or platform_b, got "${value}"`);
}

function bool(value: string | undefined, name: string): boolean | undefined {
  if (value === undefined) return undefined;
  if (value === "true") return true;
  if (value === "false") return false;
  throw badRequest(`--${name} must be true or false, got "${value}"`);
}

async function existingWorkspace(id: string): Promise<string> {
  const found = await getDb().workspace.findUnique({ where: { id }, select: { id: true } });
  if (!found) throw new AppError("not_found", `Workspace ${id} not found`);
  return id;
}

function plan(value: string): Plan | null {
  if (value === "none") return null;
  if (value === "pro") return "pro";
  throw badRequest(`--plan must be pro or none, got "${value}"`);
}

function role(value: string): Role {
  if ((ROLES as string[]).includes(value)) return value as Role;
  throw badRequest(`--role must be one of ${ROLES.join(", ")}, got "${value}"`);
}

function email(value: string): string {
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)) throw badRequest(`--email is not an email address: "${value}"`);
  return value;
}

/** Parses argv (e.g. ["workspace","create","--name","X"]) without running anything. */
export function parseAdminCommand(argv: string[]): { name: string; flags: Flags } {
  const name = commandName(argv);
  const command = COMMANDS[name];
  if (!command) throw badRequest(`Unknown command "${name}". ${ADMIN_USAGE}`);
  try {
    const { values } = parseArgs({
      args: argv.slice(2),
      options: Object.fromEntries(command.flags.map((f) => [f, { type: "string" as const }])),
      strict: true,
      allowPositionals: false,
    });
    return { name, flags: values as Flags };
  } catch (err) {
    throw badRequest(`${(err as Error).message}. ${ADMIN_USAGE}`);
  }
}

export async function runAdminCommand(argv: string[]): Promise<object> {
  const { name, flags } = parseAdminCommand(argv);
  return COMMANDS[name]!.run(flags);
}
