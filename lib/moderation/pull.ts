import { withBusyRetry } from "@/lib/ads/platform-access";
import { getConfig } from "@/lib/services";
import { getDb } from "@/lib/db/client";
import { AppError, notFound } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { adapterFor, PlatformError } from "@/lib/platforms";
import { applyAction } from "./inbox";
import { firstMatchingRule } from "./keywords";
import { rulesForMatching } from "./rules";

/**
 * At most this many comments are taken per ad account per poll (one platform call). A burst larger
 * than that is picked up by the next polls, from where the cursor stopped (docs/moderation.md).
 */
export const COMMENTS_PER_POLL = 500;

export interface PullTarget {
  workspaceId: string;
  adAccountId: string;
}

export interface PullSummary extends PullTarget {
  fetched: number;
  added: number;
  hiddenByRules: number;
  /** Rule hides the platform refused this time: retried at the next poll. */
  ruleFailures: number;
  /** Whether the cap was reached (more may be waiting). */
  capped: boolean;
}

/** The ad accounts to poll: the default, active ones (in the configured mode) of active workspaces with published ads. */
export async function commentPullTargets(workspaceId?: string): Promise<PullTarget[]> {
  const db = getDb();
  const pairs = await db.ad.findMany({
    where: { status: { in: ["active", "paused"] }, ...(workspaceId ? { workspaceId } : {}) },
    distinct: ["workspaceId", "platform"],
    select: { workspaceId: true, platform: true },
  });
  if (!pairs.length) return [];
  const accounts = await db.adAccount.findMany({
    // The default account per platform (ads are built there), and only an active one: an account
    // waiting to be reconnected is not polled (every call would be refused) until it is reconnected.
    where: {
      mode: getConfig().platforms.mode,
      status: "active",
      OR: pairs.map((p) => ({ workspaceId: p.workspaceId, defaultFor: p.platform })),
    },
    select: { id: true, workspaceId: true },
    orderBy: { id: "asc" },
  });
  const active = new Set(
    (await db.workspace.findMany({ where: { id: { in: [...new Set(accounts.map((a) => a.workspaceId))] }, status: "active" }, select: { id: true } })).map(
      (w) => w.id,
    ),
  );
  return accounts.filter((a) => active.has(a.workspaceId)).map((a) => ({ workspaceId: a.workspaceId, adAccountId: a.id }));
}

/**
 * One poll of one ad account: the comments after the cursor (createdAt, then id; at most
 * COMMENTS_PER_POLL) go into the inbox and the cursor moves past them in one transaction. Rows are
 * unique per (account, platform id), so a poll repeated after a crash, or two instances polling at
 * once, add each comment once. Then the keyword rules run on the comments not yet checked.
 */
export async function pullAccountComments(target: PullTarget, options: { limit?: number } = {}): Promise<PullSummary> {
  const limit = options.limit ?? COMMENTS_PER_POLL;
  const db = getDb();
  const account = await db.adAccount.findFirst({ where: { id: target.adAccountId, workspaceId: target.workspaceId } });
  if (!account) throw notFound("Ad account");
  const api = adapterFor(account);
  const cursor = await db.commentPullCursor.findUnique({ where: { adAccountId: account.id } });
  const comments = await withBusyRetry(() =>
    api.listComments(account, {
      limit,
      ...(cursor ? { after: cursor.afterTime.toISOString(), afterExternalId: cursor.afterId } : {}),
    }),
  );
  // The page's own replies are the inbox's replies, not comments to moderate.
  const people = comments.filter((c) => !c.byPage);
  const ads = people.length
    ? await db.ad.findMany({
        where: { workspaceId: account.workspaceId, platform: account.platform, externalId: { in: [...new Set(people.map((c) => c.adExternalId))] } },
        select: { id: true, externalId: true },
      })
    : [];
  const adIds = new Map(ads.map((a) => [a.externalId, a.id]));
  const last = comments[comments.length - 1];
  let added = 0;
  if (last) {
    await db.$transaction(async (tx) => {
      const { count } = await tx.adCommentItem.createMany({
        data: people.map((c) => ({
          id: newId("adcmt"),
          workspaceId: account.workspaceId,
          adAccountId: account.id,
          platform: account.platform,
          externalId: c.externalId,
          adExternalId: c.adExternalId,
          adId: adIds.get(c.adExternalId) ?? null,
          authorName: c.authorName,
          message: c.message,
          commentedAt: new Date(c.createdAt),
          createdAt: new Date(c.createdAt),
          state: c.hidden ? "hidden" : "new",
        })),
        skipDuplicates: true,
      });
      added = count;
      const position = { afterTime: new Date(last.createdAt), afterId: last.externalId };
      if (cursor) {
        // Conditional: when another instance moved it meanwhile, its position stands (same comments).
        await tx.commentPullCursor.updateMany({ where: { adAccountId: account.id, afterTime: cursor.afterTime, afterId: cursor.afterId }, data: position });
      } else {
        await tx.commentPullCursor.createMany({ data: [{ adAccountId: account.id, workspaceId: account.workspaceId, ...position }], skipDuplicates: true });
      }
    });
  }
  const rules = await applyRules(account.id, account.workspaceId);
  return { ...target, fetched: people.length, added, ...rules, capped: comments.length === limit };
}

/**
 * Hides the unchecked new comments that match a keyword rule. A comment stays unchecked until its hide is
 * recorded (or the platform refuses it for good), so a poll killed mid-way or failing leaves it for the next
 * one; the hide is the same call again, and only the first poll to record it writes the audit (applyAction).
 */
async function applyRules(adAccountId: string, workspaceId: string): Promise<{ hiddenByRules: number; ruleFailures: number }> {
  const db = getDb();
  const pending = await db.adCommentItem.findMany({
    where: { adAccountId, rulesCheckedAt: null },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    take: COMMENTS_PER_POLL,
  });
  if (!pending.length) return { hiddenByRules: 0, ruleFailures: 0 };
  const rules = await rulesForMatching(workspaceId);
  const matched = pending.map((row) => ({ row, rule: row.state === "new" ? firstMatchingRule(row.message, rules) : null }));
  const unmatched = matched.filter((m) => !m.rule).map((m) => m.row.id);
  if (unmatched.length) await db.adCommentItem.updateMany({ where: { id: { in: unmatched }, rulesCheckedAt: null }, data: { rulesCheckedAt: new Date() } });
  let hiddenByRules = 0;
  let ruleFailures = 0;
  for (const { row, rule } of matched) {
    if (!rule) continue;
    try {
      await applyAction(row, { kind: "hide" }, { kind: "rule", ruleId: rule.id, keyword: rule.keyword });
      hiddenByRules++;
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      // A passing refusal leaves it unchecked for the next poll to retry; a terminal one (the platform will never
      // allow it) checks it, and the comment stays new in the inbox for a person to look at.
      if (err instanceof PlatformError && !err.retryable) {
        await db.adCommentItem.updateMany({ where: { id: row.id, rulesCheckedAt: null }, data: { rulesCheckedAt: new Date() } });
      }
      ruleFailures++;
    }
  }
  return { hiddenByRules, ruleFailures };
}

/** Polls every target (or one workspace's): what the scheduled job and `admin moderation pull` run. */
export async function pullComments(workspaceId?: string): Promise<{ accounts: (PullSummary | (PullTarget & { error: { code: string; message: string } }))[] }> {
  if (workspaceId && !(await getDb().workspace.findUnique({ where: { id: workspaceId }, select: { id: true } }))) throw notFound("Workspace");
  const accounts = [];
  for (const target of await commentPullTargets(workspaceId)) {
    try {
      accounts.push(await pullAccountComments(target));
    } catch (err) {
      // One account the platform refuses does not hold up the others; its cursor stays for the next poll.
      if (!(err instanceof AppError)) throw err;
      accounts.push({ ...target, error: { code: err.code, message: err.message } });
    }
  }
  return { accounts };
}
