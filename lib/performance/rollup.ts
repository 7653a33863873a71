import { getDb } from "@/lib/db/client";
import type { Platform } from "@/lib/generated/prisma/enums";
import { platformWaitSeconds } from "@/lib/platforms";
import { evaluateCreativeTests } from "./creative-tests";
import { evaluateLabels, type EvaluateOptions, type LabelChangeOut } from "./evaluate";
import { pullAccount, SimulatedCrash, type PullOptions, type PullResult } from "./pull";

export interface RollupTarget {
  workspaceId: string;
  platforms: Platform[];
}

/** Active workspaces with ads, and the platforms their ads are on: what the hourly rollup visits. */
export async function rollupTargets(onlyWorkspaceId?: string): Promise<RollupTarget[]> {
  const rows = await getDb().ad.groupBy({
    by: ["workspaceId", "platform"],
    where: { status: { not: "deleted" }, ...(onlyWorkspaceId ? { workspaceId: onlyWorkspaceId } : {}) },
    orderBy: [{ workspaceId: "asc" }, { platform: "asc" }],
  });
  const active = new Set(
    (await getDb().workspace.findMany({ where: { id: { in: [...new Set(rows.map((r) => r.workspaceId))] }, status: "active" }, select: { id: true } })).map(
      (w) => w.id,
    ),
  );
  const out = new Map<string, Platform[]>();
  for (const r of rows) if (active.has(r.workspaceId)) out.set(r.workspaceId, [...(out.get(r.workspaceId) ?? []), r.platform]);
  return [...out].map(([workspaceId, platforms]) => ({ workspaceId, platforms }));
}

/** A failed pull; `retryAfterSeconds` when the platform is rate limiting (the wait it asked for). */
export type AccountOutcome = (PullResult & { ok: true }) | { ok: false; workspaceId: string; platform: Platform; error: string; retryAfterSeconds?: number };

/** One platform's accounts' pull; a failure (recorded on the accounts' rollup status) is answered, never thrown, so the other platforms go on. */
export async function rollupAccount(workspaceId: string, platform: Platform, options: PullOptions = {}): Promise<AccountOutcome | null> {
  try {
    const result = await pullAccount(workspaceId, platform, options);
    return result && { ok: true, ...result };
  } catch (err) {
    if (err instanceof SimulatedCrash) throw err; // a simulated kill ends the run, as a real one would
    const error = err instanceof Error ? err.message : String(err); // pullAccount recorded it on each account's rollup status
    const wait = platformWaitSeconds(err);
    return { ok: false, workspaceId, platform, error, ...(wait ? { retryAfterSeconds: wait } : {}) };
  }
}

export interface WorkspaceEvaluation {
  workspaceId: string;
  changes: LabelChangeOut[];
  decidedTests: string[];
}

/** After the workspace's accounts were pulled: labels (and their events), then its creative tests. */
export async function evaluateWorkspace(workspaceId: string, options: EvaluateOptions = {}): Promise<WorkspaceEvaluation> {
  const changes = await evaluateLabels(workspaceId, options);
  const { decided } = await evaluateCreativeTests(workspaceId, new Date(), options);
  return { workspaceId, changes, decidedTests: decided };
}

export interface RollupRun {
  accounts: AccountOutcome[];
  workspaces: WorkspaceEvaluation[];
}

/**
 * The whole hourly rollup in one process, what `admin performance rollup` and the bench run
 * (the Inngest function runs the same two functions as one step each).
 */
export async function runRollup(options: { workspaceId?: string; crashAfterChunks?: number } & EvaluateOptions = {}): Promise<RollupRun> {
  const run: RollupRun = { accounts: [], workspaces: [] };
  const pull: PullOptions = options.crashAfterChunks === undefined ? {} : { stopBudget: { chunksLeft: options.crashAfterChunks } };
  for (const target of await rollupTargets(options.workspaceId)) {
    for (const platform of target.platforms) {
      const outcome = await rollupAccount(target.workspaceId, platform, pull);
      if (outcome) run.accounts.push(outcome);
    }
    run.workspaces.push(await evaluateWorkspace(target.workspaceId, options));
  }
  return run;
}
