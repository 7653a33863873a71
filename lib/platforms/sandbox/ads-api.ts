import type { Platform } from "@/lib/generated/prisma/enums";
import { randomUUID } from "node:crypto";
import { adProblems, budgetProblem, fromPlatformName } from "../rule-checks";
import { SANDBOX_RULES } from "./rules";
import type {
  AdComment,
  AdCreativeSpec,
  AdObjectStatus,
  AdsApi,
  AdSetWrite,
  AdWrite,
  Budget,
  CallToAction,
  CampaignWrite,
  LeadsQuery,
  Objective,
  PlatformAd,
  PlatformAdSet,
  PlatformCampaign,
  LocationType,
  Targeting,
} from "../ads-types";
import { PlatformError, type AdAccountRef } from "../types";
import { type CommentGoneAction, commentGoneRefusal } from "../comment-gone";
import { sandboxAudiences, sandboxLeadForms } from "./catalog";
import { sandboxLocation, searchSandboxLocations } from "./locations";
import { localDayHour, sandboxAccount, simulatedNow, SANDBOX_ACCOUNT_SETTINGS } from "./clock";
import { syncDelivery } from "./delivery";
import { adsFaultOf, applyCommentFault, applyNameFault, slowAnswer, takeCallToken } from "./faults";
import { numericIdFrom } from "./seeded";
import { removeComment } from "./batches";
import { execute, row as oneRow, rows as allRows, TABLE, ts, updateById } from "./store";

export interface CampaignRow {
  id: string;
  accountId: string;
  clientRef: string;
  name: string;
  objective: string;
  status: string;
  createdAt: Date;
}
const CAMPAIGN_COLUMNS = `id, "accountId", "clientRef", name, objective, status, "createdAt"`;

export interface AdSetRow {
  id: string;
  accountId: string;
  campaignId: string;
  clientRef: string;
  name: string;
  status: string;
  budgetType: string;
  budgetMinor: number;
  startTime: Date | null;
  endTime: Date | null;
  targeting: unknown;
  audienceId: string | null;
  audienceSize: number;
  createdAt: Date;
}
const AD_SET_COLUMNS = `id, "accountId", "campaignId", "clientRef", name, status, "budgetType", "budgetMinor", "startTime", "endTime", targeting, "audienceId", "audienceSize", "createdAt"`;

export interface AdRow {
  id: string;
  accountId: string;
  adSetId: string;
  clientRef: string;
  name: string;
  status: string;
  mediaId: string;
  mediaKind: string;
  headline: string | null;
  primaryText: string | null;
  description: string | null;
  callToAction: string;
  landingUrl: string;
  leadFormId: string | null;
  quality: number;
}
const AD_COLUMNS = `id, "accountId", "adSetId", "clientRef", name, status, "mediaId", "mediaKind", headline, "primaryText", description, "callToAction", "landingUrl", "leadFormId", quality`;

export interface CommentRow {
  id: string;
  accountId: string;
  adId: string;
  authorName: string;
  message: string;
  hidden: boolean;
  parentId: string | null;
  byPage: boolean;
  deletedAt: Date | null;
  createdAt: Date;
}
export const COMMENT_COLUMNS = `id, "accountId", "adId", "authorName", message, hidden, "parentId", "byPage", "deletedAt", "createdAt"`;

interface LeadRow {
  id: string;
  formId: string;
  adId: string | null;
  fields: unknown;
  createdAt: Date;
}

/** The verb a sandbox fault names for each comment action ("refused to hide the comment"). */
const COMMENT_ACTION_VERB: Record<CommentGoneAction, string> = { hidden: "hide", shown: "unhide", "replied to": "reply to" };

/**
 * The sandbox's ads API: objects stored in its own tables (schema `sandbox`, ./migrations),
 * platform-native names inside, the neutral contract outside. Every call first delivers the
 * hours that passed (so a change applies from the current simulated hour on), and is
 * rate-limited in bursts per account; writes are idempotent by clientRef.
 */
export class SandboxAdsApi implements AdsApi {
  constructor(readonly platform: Platform) {}

  private get rules() {
    return SANDBOX_RULES[this.platform];
  }

  /** Rate limit, then bring delivery up to the current simulated hour. */
  private async enter(account: AdAccountRef) {
    takeCallToken(this.platform, account.externalAccountId);
    const row = await sandboxAccount(account);
    await syncDelivery(row);
    return row;
  }

  private invalid(message: string): PlatformError {
    return new PlatformError("invalid_input", `${this.platform} refused the request: ${message}`, { retryable: false });
  }

  private notFound(kind: string, id: string): PlatformError {
    return new PlatformError("invalid_input", `${this.platform} has no ${kind} ${id} in this ad account`, { retryable: false });
  }

  private newObjectId(account: AdAccountRef, clientRef: string, kind: string): string {
    // Derived from the clientRef, so even a lost answer to a create names the same object.
    return numericIdFrom(`${account.externalAccountId}:${kind}:${clientRef}`, this.platform === "platform_a" ? 18 : 19);
  }

  async getAccount(account: AdAccountRef) {
    const row = await this.enter(account);
    const now = simulatedNow(row);
    return {
      externalAccountId: account.externalAccountId,
      name: SANDBOX_ACCOUNT_SETTINGS[this.platform].name,
      currency: row.currency,
      timeZone: row.timeZone,
      status: "active" as const,
      now: new Date(now).toISOString(),
      today: localDayHour(now, row.timeZone).date,
    };
  }

  async createCampaign(account: AdAccountRef, write: CampaignWrite): Promise<PlatformCampaign> {
    await this.enter(account);
    const existing = await this.byClientRef<CampaignRow>(TABLE.campaigns, CAMPAIGN_COLUMNS, account, write.clientRef);
    if (existing) return this.campaignOut(existing);
    applyNameFault(this.platform, "campaign", write.name, `${account.externalAccountId}:${write.clientRef}:create`);
    await execute(
      `INSERT INTO ${TABLE.campaigns} (id, "accountId", "clientRef", name, objective, status) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING`,
      this.newObjectId(account, write.clientRef, "campaign"),
      account.externalAccountId,
      write.clientRef,
      write.name,
      this.rules.objectiveNames[write.objective],
      this.rules.statusNames.paused,
    );
    await slowAnswer(write.name);
    return this.campaignOut(await this.byClientRefOrThrow<CampaignRow>(TABLE.campaigns, CAMPAIGN_COLUMNS, account, write.clientRef));
  }

  /** The account's object made with this clientRef (what makes creates idempotent). */
  private byClientRef<T>(table: string, columns: string, account: AdAccountRef, clientRef: string): Promise<T | null> {
    return oneRow<T>(`SELECT ${columns} FROM ${table} WHERE "accountId" = $1 AND "clientRef" = $2`, account.externalAccountId, clientRef);
  }

  private async byClientRefOrThrow<T>(table: string, columns: string, account: AdAccountRef, clientRef: string): Promise<T> {
    const found = await this.byClientRef<T>(table, columns, account, clientRef);
    if (!found) throw new PlatformError("upstream_error", `${this.platform} lost the object it made for ${clientRef}`, { retryable: true });
    return found;
  }

  /** The account's object with this id. */
  private byId<T>(table: string, columns: string, account: AdAccountRef, id: string): Promise<T | null> {
    return oneRow<T>(`SELECT ${columns} FROM ${table} WHERE id = $1 AND "accountId" = $2`, id, account.externalAccountId);
  }

  async updateCampaign(account: AdAccountRef, externalId: string, patch: { name?: string; status?: AdObjectStatus; clientRef: string }) {
    await this.enter(account);
    const row = await this.byId<CampaignRow>(TABLE.campaigns, CAMPAIGN_COLUMNS, account, externalId);
    if (!row) throw this.notFound("campaign", externalId);
    this.checkWritable(row.status, "campaign", externalId);
    applyNameFault(this.platform, "campaign", patch.name ?? row.name, `${account.externalAccountId}:${patch.clientRef}:update`);
    const updated = await updateById<CampaignRow>(TABLE.campaigns, CAMPAIGN_COLUMNS, externalId, {
      name: patch.name,
      status: patch.status ? this.rules.statusNames[patch.status] : undefined,
    });
    return this.campaignOut(updated ?? row);
  }

  async createAdSet(account: AdAccountRef, write: AdSetWrite): Promise<PlatformAdSet> {
    const acct = await this.enter(account);
    const existing = await this.byClientRef<AdSetRow>(TABLE.adSets, AD_SET_COLUMNS, account, write.clientRef);
    if (existing) return this.adSetOut(existing);
    const campaign = await this.byId<CampaignRow>(TABLE.campaigns, CAMPAIGN_COLUMNS, account, write.campaignExternalId);
    if (!campaign) throw this.notFound("campaign", write.campaignExternalId);
    this.checkTargeting(write.targeting);
    const start = write.startTime ? new Date(write.startTime) : new Date(simulatedNow(acct));
    const problem = budgetProblem(
      this.rules,
      this.platform,
      write.budget,
      { startTime: start, endTime: write.endTime ? new Date(write.endTime) : null },
      acct.currency,
    );
    if (problem) throw this.invalid(problem);
    applyNameFault(this.platform, this.rules.adSetNoun, write.name, `${account.externalAccountId}:${write.clientRef}:create`);
    const audience = write.audienceId ? sandboxAudiences(account.externalAccountId).find((a) => a.externalId === write.audienceId) : undefined;
    if (write.audienceId && !audience) throw this.notFound("saved audience", write.audienceId);
    const audienceSize =
      audience?.approximateSize ??
      (write.targeting.platform === "platform_a"
        ? 40_000 * write.targeting.countries.length + 8_000 * ((write.targeting.regions?.length ?? 0) + (write.targeting.cities?.length ?? 0))
        : 30_000 * write.targeting.locationIds.length);
    await execute(
      `INSERT INTO ${TABLE.adSets} (id, "accountId", "campaignId", "clientRef", name, status, "budgetType", "budgetMinor", "startTime", "endTime", targeting, "audienceId", "audienceSize")
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8::int, $9::timestamp(3), $10::timestamp(3), $11::jsonb, $12, $13::int) ON CONFLICT DO NOTHING`,
      this.newObjectId(account, write.clientRef, "adset"),
      account.externalAccountId,
      campaign.id,
      write.clientRef,
      write.name,
      this.rules.statusNames.paused,
      write.budget.type,
      write.budget.amountMinor,
      ts(write.startTime),
      ts(write.endTime),
      JSON.stringify(write.targeting),
      write.audienceId ?? null,
      audienceSize,
    );
    await slowAnswer(write.name);
    return this.adSetOut(await this.byClientRefOrThrow<AdSetRow>(TABLE.adSets, AD_SET_COLUMNS, account, write.clientRef));
  }

  async updateAdSet(
    account: AdAccountRef,
    externalId: string,
    patch: { name?: string; status?: AdObjectStatus; budget?: Budget; endTime?: string | null; clientRef: string },
  ) {
    const acct = await this.enter(account);
    const row = await this.byId<AdSetRow>(TABLE.adSets, AD_SET_COLUMNS, account, externalId);
    if (!row) throw this.notFound(this.rules.adSetNoun, externalId);
    this.checkWritable(row.status, this.rules.adSetNoun, externalId);
    if (patch.budget || patch.endTime !== undefined) {
      const budget = patch.budget ?? { type: row.budgetType as Budget["type"], amountMinor: row.budgetMinor };
      const endTime = patch.endTime !== undefined ? (patch.endTime ? new Date(patch.endTime) : null) : row.endTime;
      const problem = budgetProblem(this.rules, this.platform, budget, { startTime: row.startTime ?? row.createdAt, endTime }, acct.currency);
      if (problem) throw this.invalid(problem);
    }
    applyNameFault(this.platform, this.rules.adSetNoun, patch.name ?? row.name, `${account.externalAccountId}:${patch.clientRef}:update`);
    const updated = await updateById<AdSetRow>(
      TABLE.adSets,
      AD_SET_COLUMNS,
      externalId,
      {
        name: patch.name,
        status: patch.status ? this.rules.statusNames[patch.status] : undefined,
        budgetType: patch.budget?.type,
        budgetMinor: patch.budget?.amountMinor,
        endTime: patch.endTime !== undefined ? ts(patch.endTime) : undefined,
      },
      { budgetMinor: "int", endTime: "timestamp(3)" },
    );
    return this.adSetOut(updated ?? row);
  }

  async createAd(account: AdAccountRef, write: AdWrite): Promise<PlatformAd> {
    await this.enter(account);
    const existing = await this.byClientRef<AdRow>(TABLE.ads, AD_COLUMNS, account, write.clientRef);
    if (existing) return this.adOut(existing);
    const adSet = await this.byId<AdSetRow>(TABLE.adSets, AD_SET_COLUMNS, account, write.adSetExternalId);
    if (!adSet) throw this.notFound(this.rules.adSetNoun, write.adSetExternalId);
    this.checkCreative(write.creative);
    applyNameFault(this.platform, "ad", write.name, `${account.externalAccountId}:${write.clientRef}:create`);
    const row: AdRow = {
      id: this.newObjectId(account, write.clientRef, "ad"),
      accountId: account.externalAccountId,
      adSetId: adSet.id,
      clientRef: write.clientRef,
      name: write.name,
      status: this.rules.statusNames.paused,
      mediaId: write.creative.mediaId,
      mediaKind: write.creative.kind,
      headline: write.creative.headline ?? null,
      primaryText: write.creative.primaryText ?? null,
      description: write.creative.description ?? null,
      callToAction: this.rules.callToActionNames[write.creative.callToAction]!,
      landingUrl: write.creative.landingUrl,
      leadFormId: write.creative.leadFormId ?? null,
      quality: qualityOf(write.creative.mediaId),
    };
    const count = await insertAds([row]);
    await slowAnswer(write.name);
    // Made now: answer what was written; otherwise a concurrent create of the same clientRef won, answer that.
    if (count) return this.adOut(row);
    return this.adOut(await this.byClientRefOrThrow<AdRow>(TABLE.ads, AD_COLUMNS, account, write.clientRef));
  }

  async updateAd(
    account: AdAccountRef,
    externalId: string,
    patch: { name?: string; status?: AdObjectStatus; creative?: Partial<AdCreativeSpec>; clientRef: string },
  ) {
    await this.enter(account);
    const row = await this.byId<AdRow>(TABLE.ads, AD_COLUMNS, account, externalId);
    if (!row) throw this.notFound("ad", externalId);
    this.checkWritable(row.status, "ad", externalId);
    const c = patch.creative ?? {};
    if (patch.creative) this.checkCreative({ ...this.adOut(row).creative, ...c });
    applyNameFault(this.platform, "ad", patch.name ?? row.name, `${account.externalAccountId}:${patch.clientRef}:update`);
    // null clears a text; undefined leaves it (updateById skips undefined only).
    const updated = await updateById<AdRow>(TABLE.ads, AD_COLUMNS, externalId, {
      name: patch.name,
      status: patch.status ? this.rules.statusNames[patch.status] : undefined,
      headline: c.headline,
      primaryText: c.primaryText,
      description: c.description,
      callToAction: c.callToAction !== undefined ? this.rules.callToActionNames[c.callToAction]! : undefined,
      landingUrl: c.landingUrl,
    });
    return this.adOut(updated ?? row);
  }

  async listAudiences(account: AdAccountRef) {
    takeCallToken(this.platform, account.externalAccountId);
    return sandboxAudiences(account.externalAccountId);
  }

  async searchLocations(account: AdAccountRef, query: { text: string; types: readonly LocationType[]; limit: number }) {
    takeCallToken(this.platform, account.externalAccountId);
    return searchSandboxLocations(this.platform, query.text, query.types, query.limit);
  }

  async getDailyInsights(account: AdAccountRef, query: { since: string; until: string; adExternalIds?: string[] }) {
    await this.enter(account);
    const rows = await allRows<{
      adId: string;
      date: string;
      impressions: number;
      reach: number;
      clicks: number;
      spendMinor: number;
      conversions: number;
      valueMinor: number;
      frequency: number;
    }>(
      `SELECT "adId", date, impressions, reach, clicks, "spendMinor", conversions, "valueMinor", frequency FROM ${TABLE.adDays}
        WHERE "accountId" = $1 AND date >= $2 AND date <= $3 AND ($4::text[] IS NULL OR "adId" = ANY($4::text[]))
        ORDER BY date, "adId"`,
      account.externalAccountId,
      query.since,
      query.until,
      query.adExternalIds ?? null,
    );
    return rows.map((r) => ({
      adExternalId: r.adId,
      date: r.date,
      impressions: r.impressions,
      reach: r.reach,
      clicks: r.clicks,
      spendMinor: r.spendMinor,
      conversions: r.conversions,
      conversionValueMinor: r.valueMinor,
      frequency: Math.round(r.frequency * 100) / 100,
    }));
  }

  async listComments(account: AdAccountRef, query: { after?: string; afterExternalId?: string; adExternalIds?: string[]; limit: number }) {
    const acct = await this.enter(account);
    const after = query.after ? new Date(query.after) : null;
    // Published by the hour: what was written in the hour not yet delivered shows once it is, so
    // a reader moving forward by (createdAt, id) never sees an older comment appear behind it.
    const rows = await allRows<CommentRow>(
      `SELECT ${COMMENT_COLUMNS} FROM ${TABLE.comments}
        WHERE "accountId" = $1 AND "deletedAt" IS NULL AND "createdAt" < $2::timestamp(3)
          AND ($3::timestamp(3) IS NULL OR "createdAt" > $3::timestamp(3) OR ($4::text IS NOT NULL AND "createdAt" = $3::timestamp(3) AND id > $4::text))
          AND ($5::text[] IS NULL OR "adId" = ANY($5::text[]))
        ORDER BY "createdAt", id LIMIT $6::int`,
      account.externalAccountId,
      ts(acct.deliveredThrough),
      ts(after),
      query.afterExternalId ?? null,
      query.adExternalIds ?? null,
      query.limit,
    );
    return rows.map(commentOut);
  }

  /** The comment as the platform holds it, deleted or not; a comment never on this account is refused. */
  private async heldComment(account: AdAccountRef, commentExternalId: string) {
    const row = await oneRow<CommentRow>(
      `SELECT ${COMMENT_COLUMNS} FROM ${TABLE.comments} WHERE id = $1 AND "accountId" = $2`,
      commentExternalId,
      account.externalAccountId,
    );
    if (!row) throw this.notFound("comment", commentExternalId);
    return row;
  }

  /**
   * A comment people can act on: present and not deleted; its text steers faults like object names do. One deleted
   * (by its author or on the platform) is refused saying so, as the live platforms refuse a comment they no longer have.
   */
  private async actionableComment(account: AdAccountRef, commentExternalId: string, action: CommentGoneAction) {
    const row = await this.heldComment(account, commentExternalId);
    if (row.deletedAt) throw commentGoneRefusal(this.platform, commentExternalId, "on the platform", action);
    applyCommentFault(this.platform, row.message, COMMENT_ACTION_VERB[action]);
    return row;
  }

  async setCommentHidden(account: AdAccountRef, commentExternalId: string, hidden: boolean) {
    await this.enter(account);
    await this.actionableComment(account, commentExternalId, hidden ? "hidden" : "shown");
    const updated = await updateById<CommentRow>(TABLE.comments, COMMENT_COLUMNS, commentExternalId, { hidden });
    if (!updated) throw this.notFound("comment", commentExternalId);
    return commentOut(updated);
  }

  async replyToComment(account: AdAccountRef, commentExternalId: string, message: string, clientRef: string) {
    const acct = await this.enter(account);
    const parent = await this.actionableComment(account, commentExternalId, "replied to");
    if (parent.byPage) throw this.invalid("the page cannot reply to its own reply");
    if (!message.trim()) throw this.invalid("a reply needs a message");
    if (message.length > COMMENT_MAX_LENGTH) throw this.invalid(`a reply is at most ${COMMENT_MAX_LENGTH} characters`);
    // The same clientRef names the same reply: a retry whose first answer was lost does not post twice
    // (concurrent ones included: the second insert is skipped). A deleted reply is gone; then it posts anew.
    const first = numericIdFrom(`${commentExternalId}:reply:${clientRef}`, 17);
    const byId = (id: string) => oneRow<CommentRow>(`SELECT ${COMMENT_COLUMNS} FROM ${TABLE.comments} WHERE id = $1`, id);
    const existing = await byId(first);
    if (existing && !existing.deletedAt) return commentOut(existing);
    const id = existing ? numericIdFrom(`${first}:${randomUUID()}`, 17) : first;
    await execute(
      `INSERT INTO ${TABLE.comments} (id, "accountId", "adId", "authorName", message, "parentId", "byPage", "createdAt")
       VALUES ($1, $2, $3, $4, $5, $6, true, $7::timestamp(3)) ON CONFLICT (id) DO NOTHING`,
      id,
      account.externalAccountId,
      parent.adId,
      SANDBOX_ACCOUNT_SETTINGS[this.platform].name,
      message,
      parent.id,
      ts(simulatedNow(acct)),
    );
    const reply = await byId(id);
    if (!reply) throw new PlatformError("upstream_error", `${this.platform} lost the reply it posted`, { retryable: true });
    return commentOut(reply);
  }

  /**
   * Deletes a comment and its replies. One already deleted (by its author, or by an earlier call whose answer was lost)
   * is what a delete asks for: done, as on platform_a, not a refusal that would fail the moderator's delete every time.
   */
  async deleteComment(account: AdAccountRef, commentExternalId: string) {
    const acct = await this.enter(account);
    const row = await this.heldComment(account, commentExternalId);
    if (row.deletedAt) return;
    applyCommentFault(this.platform, row.message, "delete");
    await removeComment(account.externalAccountId, commentExternalId, new Date(simulatedNow(acct)));
  }

  async listLeadForms(account: AdAccountRef) {
    takeCallToken(this.platform, account.externalAccountId);
    return sandboxLeadForms(account.externalAccountId);
  }

  async listLeadSubmissions(account: AdAccountRef, query: LeadsQuery) {
    const row = await this.enter(account);
    const after = query.after ? new Date(query.after) : null;
    // Only submissions of hours already delivered: seeded ones wait for their hour like real ones,
    // so nothing ever appears behind a position a reader has already passed.
    const rows = await allRows<LeadRow>(
      `SELECT id, "formId", "adId", fields, "createdAt" FROM ${TABLE.leads}
        WHERE "accountId" = $1 AND "formId" = $2 AND "createdAt" < $3::timestamp(3)
          AND ($4::timestamp(3) IS NULL OR "createdAt" > $4::timestamp(3) OR ($5::text IS NOT NULL AND "createdAt" = $4::timestamp(3) AND id > $5::text))
        ORDER BY "createdAt", id LIMIT $6::int`,
      account.externalAccountId,
      query.formExternalId,
      ts(row.deliveredThrough),
      ts(after),
      query.afterId ?? null,
      query.limit,
    );
    const poisoned = rows.find((r) => (r.fields as { values: string[] }[]).some((f) => f.values.some((v) => adsFaultOf(v) === "reject")));
    if (poisoned) {
      throw new PlatformError(
        "upstream_error",
        `${this.platform} failed to read the submissions of lead form ${query.formExternalId} (sandbox-reject in submission ${poisoned.id}: every read of a page holding it fails)`,
        {
          retryable: true,
        },
      );
    }
    return rows.map((r) => ({
      externalId: r.id,
      formExternalId: r.formId,
      adExternalId: r.adId,
      createdAt: r.createdAt.toISOString(),
      fields: r.fields as { name: string; values: string[] }[],
    }));
  }

  private checkWritable(status: string, kind: string, id: string): void {
    if (status === this.rules.statusNames.deleted) throw this.invalid(`the ${kind} ${id} was deleted and cannot be changed`);
  }

  private checkTargeting(targeting: Targeting): void {
    if (targeting.platform !== this.platform) throw this.invalid(`targeting for ${targeting.platform} sent to ${this.platform}`);
    if (targeting.platform === "platform_a" && !targeting.countries.every((c) => /^[A-Z]{2}$/.test(c)))
      throw this.invalid("countries must be ISO 3166 alpha-2 codes");
    if (targeting.platform === "platform_a") {
      const places = [...targeting.countries, ...(targeting.regions ?? []), ...(targeting.cities ?? [])];
      if (places.length === 0) throw this.invalid("an ad set needs at least one target country, region or city");
      for (const [type, keys] of [
        ["region", targeting.regions ?? []],
        ["city", targeting.cities ?? []],
      ] as const)
        for (const key of keys) if (!sandboxLocation(this.platform, key, type)) throw this.invalid(`${key} is not a ${type} key (search locations by name)`);
    }
    if (targeting.platform === "platform_b" && targeting.locationIds.length === 0) throw this.invalid("an ad group needs at least one location id");
  }

  private checkCreative(creative: AdCreativeSpec): void {
    const problems = adProblems(
      this.rules,
      this.platform,
      { id: creative.mediaId, kind: creative.kind, width: null, height: null, durationMs: null, sizeBytes: 0 },
      creative,
      creative.callToAction,
    ).filter(
      (p) => !p.startsWith("creative "), // media was checked when it was uploaded
    );
    if (problems.length) throw this.invalid(problems.join("; "));
    if (!/^https?:\/\//.test(creative.landingUrl)) throw this.invalid("the landing URL must be http(s)");
  }

  private campaignOut(row: CampaignRow): PlatformCampaign {
    return {
      externalId: row.id,
      clientRef: row.clientRef,
      name: row.name,
      objective: fromPlatformName<Objective>(this.rules.objectiveNames, row.objective) ?? "traffic",
      status: this.status(row.status),
      createdAt: row.createdAt.toISOString(),
    };
  }

  private adSetOut(row: AdSetRow): PlatformAdSet {
    return {
      externalId: row.id,
      clientRef: row.clientRef,
      campaignExternalId: row.campaignId,
      name: row.name,
      status: this.status(row.status),
      budget: { type: row.budgetType as Budget["type"], amountMinor: row.budgetMinor },
      startTime: row.startTime?.toISOString() ?? null,
      endTime: row.endTime?.toISOString() ?? null,
      targeting: row.targeting as unknown as Targeting,
      audienceId: row.audienceId,
    };
  }

  private adOut(row: AdRow): PlatformAd {
    return {
      externalId: row.id,
      clientRef: row.clientRef,
      adSetExternalId: row.adSetId,
      name: row.name,
      status: this.status(row.status),
      creative: {
        mediaId: row.mediaId,
        kind: row.mediaKind as AdCreativeSpec["kind"],
        headline: row.headline,
        primaryText: row.primaryText,
        description: row.description,
        callToAction: fromPlatformName<CallToAction>(this.rules.callToActionNames, row.callToAction) ?? "learn_more",
        landingUrl: row.landingUrl,
        leadFormId: row.leadFormId,
      },
    };
  }

  private status(name: string): AdObjectStatus {
    return fromPlatformName<AdObjectStatus>(this.rules.statusNames, name) ?? "paused";
  }
}

/** Each creative's own quality, 0.6 to 1.4, seeded from its media id. */
export function qualityOf(mediaId: string): number {
  const n = parseInt(numericIdFrom(`quality:${mediaId}`, 6), 10) % 1000;
  return 0.6 + (n / 999) * 0.8;
}

/** The longest comment or reply the sandbox accepts (the real platforms allow about 8,000 characters). */
export const COMMENT_MAX_LENGTH = 8000;

export function commentOut(r: CommentRow): AdComment {
  return {
    externalId: r.id,
    adExternalId: r.adId,
    authorName: r.authorName,
    message: r.message,
    createdAt: r.createdAt.toISOString(),
    hidden: r.hidden,
    parentExternalId: r.parentId,
    byPage: r.byPage,
  };
}

/** Stores ads as given (a clientRef or id already there is kept as it is); answers how many were new. */
export async function insertAds(ads: AdRow[]): Promise<number> {
  let inserted = 0;
  for (let i = 0; i < ads.length; i += 2000) {
    const chunk = ads.slice(i, i + 2000);
    const column = <K extends keyof AdRow>(key: K) => chunk.map((ad) => ad[key]);
    inserted += await execute(
      `INSERT INTO ${TABLE.ads} (${AD_COLUMNS})
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[],
                            $11::text[], $12::text[], $13::text[], $14::text[], $15::float8[])
       ON CONFLICT DO NOTHING`,
      column("id"),
      column("accountId"),
      column("adSetId"),
      column("clientRef"),
      column("name"),
      column("status"),
      column("mediaId"),
      column("mediaKind"),
      column("headline"),
      column("primaryText"),
      column("description"),
      column("callToAction"),
      column("landingUrl"),
      column("leadFormId"),
      column("quality"),
    );
  }
  return inserted;
}
