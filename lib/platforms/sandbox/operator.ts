import type { AdAccountRef } from "../types";
import { insertAds, type AdRow } from "./ads-api";
import { insertComments } from "./batches";
import { sandboxAccount, simulatedNow } from "./clock";
import { execute, row, rows, TABLE, ts } from "./store";

/**
 * The sandbox's operator and test surface: what `npm run admin -- sandbox …` runs, and how tests steer
 * the platform (its clock, faults, planted objects) and read what it holds, without naming its tables.
 * Accounts are the app's sandbox ad accounts (`AdAccountRef` with mode `sandbox`).
 */
export { qualityOf } from "./ads-api";
export { sandboxMediaSessionsOf, sandboxFaultOf, SANDBOX_PROCESSING_MS } from "./adapter";
export { advanceSandbox, advanceSandboxAccount, MAX_ADVANCE_HOURS } from "./advance";
export { deleteSandboxCommentByAuthor, postSandboxComment, sandboxCommentsOf } from "./comments";
export { burstLimit } from "./faults";
export { MAX_SEEDED_LEADS, seedSandboxLeads, type SeedLeadsInput } from "./seed-leads";

type Account = Pick<AdAccountRef, "externalAccountId" | "workspaceId" | "platform">;

/** The account's simulated clock: now, the start of the first hour not yet delivered, its time zone. */
export async function sandboxClock(account: Account): Promise<{ simulatedNow: Date; deliveredThrough: Date; timeZone: string }> {
  const acct = await sandboxAccount(account);
  return { simulatedNow: new Date(simulatedNow(acct)), deliveredThrough: acct.deliveredThrough, timeZone: acct.timeZone };
}

/** Sets the time zone the platform reports for the account (any text: an unknown zone makes its reports fail, as a broken platform would). */
export async function setSandboxTimeZone(account: Account, timeZone: string): Promise<void> {
  await sandboxAccount(account);
  await execute(`UPDATE ${TABLE.accounts} SET "timeZone" = $2 WHERE "externalAccountId" = $1`, account.externalAccountId, timeZone);
}

/** Sets the currency (ISO 4217) the platform reports for the account, as a live account has its own. */
export async function setSandboxCurrency(account: Account, currency: string): Promise<void> {
  await sandboxAccount(account);
  await execute(`UPDATE ${TABLE.accounts} SET currency = $2 WHERE "externalAccountId" = $1`, account.externalAccountId, currency);
}

/** Puts comments on the platform as given (exact ids and times, e.g. equal timestamps across pages); answers how many were new. */
export async function plantSandboxComments(
  account: Account,
  comments: { id: string; adId: string; message: string; createdAt: Date; authorName?: string }[],
): Promise<number> {
  await sandboxAccount(account);
  return insertComments(comments.map((c) => ({ ...c, accountId: account.externalAccountId, authorName: c.authorName ?? "Sandbox Visitor" })));
}

/** How many replies (not deleted or deleted) the platform holds under a comment. */
export async function sandboxReplyCount(account: Account, parentExternalId: string): Promise<number> {
  const found = await row<{ n: number }>(
    `SELECT count(*)::int AS n FROM ${TABLE.comments} WHERE "accountId" = $1 AND "parentId" = $2`,
    account.externalAccountId,
    parentExternalId,
  );
  return found?.n ?? 0;
}

/** The campaigns the platform holds for the account, in its own names (objective, status), oldest first. */
export function sandboxCampaigns(account: Account): Promise<{ externalId: string; clientRef: string; name: string; objective: string; status: string }[]> {
  return rows(
    `SELECT id AS "externalId", "clientRef", name, objective, status FROM ${TABLE.campaigns} WHERE "accountId" = $1 ORDER BY "createdAt", id`,
    account.externalAccountId,
  );
}

/** How many (ad, day) delivery rows the platform holds for the account. */
export async function sandboxDeliveryDays(account: Account): Promise<number> {
  const found = await row<{ n: number }>(`SELECT count(*)::int AS n FROM ${TABLE.adDays} WHERE "accountId" = $1`, account.externalAccountId);
  return found?.n ?? 0;
}

/**
 * Plants one active campaign with `adSets` active ad sets (daily budget, 40,000 people each) and their
 * active ads straight on the platform, ids `${account}-c`, `${account}-s<n>`, `${account}-a<n>`: a fast
 * setup for benchmarks and tests of many ads (the app's own rows are the caller's business).
 */
export async function plantSandboxAds(
  account: Account,
  plan: {
    objective: string;
    status: string;
    adSets: { clientRef: string; name: string; budgetMinor: number }[];
    ads: { clientRef: string; name: string; adSet: number; mediaId: string; callToAction: string; landingUrl: string; quality: number }[];
  },
): Promise<{ campaignId: string; adSetIds: string[]; adIds: string[] }> {
  await sandboxAccount(account);
  const acct = account.externalAccountId;
  const campaignId = `${acct}-c`;
  await execute(
    `INSERT INTO ${TABLE.campaigns} (id, "accountId", "clientRef", name, objective, status) VALUES ($1, $2, 'c', 'Bench', $3, $4) ON CONFLICT DO NOTHING`,
    campaignId,
    acct,
    plan.objective,
    plan.status,
  );
  const adSetIds = plan.adSets.map((_, s) => `${acct}-s${s}`);
  await execute(
    `INSERT INTO ${TABLE.adSets} (id, "accountId", "campaignId", "clientRef", name, status, "budgetType", "budgetMinor", targeting, "audienceSize", "createdAt")
     SELECT id, $2, $3, ref, name, $4, 'daily', budget, '{"countries":["US"]}'::jsonb, 40000, $8::timestamp(3)
       FROM unnest($1::text[], $5::text[], $6::text[], $7::int[]) AS v(id, ref, name, budget)
     ON CONFLICT DO NOTHING`,
    adSetIds,
    acct,
    campaignId,
    plan.status,
    plan.adSets.map((s) => s.clientRef),
    plan.adSets.map((s) => s.name),
    plan.adSets.map((s) => s.budgetMinor),
    ts(new Date()),
  );
  const ads: AdRow[] = plan.ads.map((a, i) => ({
    id: `${acct}-a${i}`,
    accountId: acct,
    adSetId: adSetIds[a.adSet]!,
    clientRef: a.clientRef,
    name: a.name,
    status: plan.status,
    mediaId: a.mediaId,
    mediaKind: "image",
    headline: null,
    primaryText: null,
    description: null,
    callToAction: a.callToAction,
    landingUrl: a.landingUrl,
    leadFormId: null,
    quality: a.quality,
  }));
  await insertAds(ads);
  return { campaignId, adSetIds, adIds: ads.map((a) => a.id) };
}
