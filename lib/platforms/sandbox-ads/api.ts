import { getDb } from "@/lib/db/client";
import type { Platform } from "@/lib/generated/prisma/enums";
import { randomUUID } from "node:crypto";
import type { SandboxAd, SandboxAdSet, SandboxCampaign, SandboxComment } from "@/lib/generated/prisma/client";
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
  Targeting,
} from "../ads-types";
import { PlatformError, type AdAccountRef } from "../types";
import { sandboxAudiences, sandboxLeadForms } from "./catalog";
import { localDayHour, sandboxAccount, simulatedNow, SANDBOX_ACCOUNT_SETTINGS } from "./clock";
import { syncDelivery } from "./delivery";
import { adsFaultOf, applyCommentFault, applyNameFault, slowAnswer, takeCallToken } from "./faults";
import { numericIdFrom } from "./seeded";

/**
 * The sandbox's ads API: objects stored in its own tables (prisma/schema/sandbox-ads.prisma),
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
    const db = getDb();
    const existing = await db.sandboxCampaign.findUnique({
      where: { accountId_clientRef: { accountId: account.externalAccountId, clientRef: write.clientRef } },
    });
    if (existing) return this.campaignOut(existing);
    applyNameFault(this.platform, "campaign", write.name, `${account.externalAccountId}:${write.clientRef}:create`);
    await db.sandboxCampaign.createMany({
      data: [
        {
          id: this.newObjectId(account, write.clientRef, "campaign"),
          accountId: account.externalAccountId,
          clientRef: write.clientRef,
          name: write.name,
          objective: this.rules.objectiveNames[write.objective],
          status: this.rules.statusNames.paused,
        },
      ],
      skipDuplicates: true,
    });
    await slowAnswer(write.name);
    return this.campaignOut(
      await db.sandboxCampaign.findUniqueOrThrow({ where: { accountId_clientRef: { accountId: account.externalAccountId, clientRef: write.clientRef } } }),
    );
  }

  async updateCampaign(account: AdAccountRef, externalId: string, patch: { name?: string; status?: AdObjectStatus; clientRef: string }) {
    await this.enter(account);
    const db = getDb();
    const row = await db.sandboxCampaign.findFirst({ where: { id: externalId, accountId: account.externalAccountId } });
    if (!row) throw this.notFound("campaign", externalId);
    this.checkWritable(row.status, "campaign", externalId);
    applyNameFault(this.platform, "campaign", patch.name ?? row.name, `${account.externalAccountId}:${patch.clientRef}:update`);
    const updated = await db.sandboxCampaign.update({
      where: { id: externalId },
      data: { ...(patch.name !== undefined ? { name: patch.name } : {}), ...(patch.status ? { status: this.rules.statusNames[patch.status] } : {}) },
    });
    return this.campaignOut(updated);
  }

  async createAdSet(account: AdAccountRef, write: AdSetWrite): Promise<PlatformAdSet> {
    const acct = await this.enter(account);
    const db = getDb();
    const existing = await db.sandboxAdSet.findUnique({ where: { accountId_clientRef: { accountId: account.externalAccountId, clientRef: write.clientRef } } });
    if (existing) return this.adSetOut(existing);
    const campaign = await db.sandboxCampaign.findFirst({ where: { id: write.campaignExternalId, accountId: account.externalAccountId } });
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
      (write.targeting.platform === "platform_a" ? 40_000 * write.targeting.countries.length : 30_000 * write.targeting.locationIds.length);
    await db.sandboxAdSet.createMany({
      data: [
        {
          id: this.newObjectId(account, write.clientRef, "adset"),
          accountId: account.externalAccountId,
          campaignId: campaign.id,
          clientRef: write.clientRef,
          name: write.name,
          status: this.rules.statusNames.paused,
          budgetType: write.budget.type,
          budgetMinor: write.budget.amountMinor,
          startTime: write.startTime ? new Date(write.startTime) : null,
          endTime: write.endTime ? new Date(write.endTime) : null,
          targeting: write.targeting as object,
          audienceId: write.audienceId,
          audienceSize,
        },
      ],
      skipDuplicates: true,
    });
    await slowAnswer(write.name);
    return this.adSetOut(
      await db.sandboxAdSet.findUniqueOrThrow({ where: { accountId_clientRef: { accountId: account.externalAccountId, clientRef: write.clientRef } } }),
    );
  }

  async updateAdSet(
    account: AdAccountRef,
    externalId: string,
    patch: { name?: string; status?: AdObjectStatus; budget?: Budget; endTime?: string | null; clientRef: string },
  ) {
    const acct = await this.enter(account);
    const db = getDb();
    const row = await db.sandboxAdSet.findFirst({ where: { id: externalId, accountId: account.externalAccountId } });
    if (!row) throw this.notFound(this.rules.adSetNoun, externalId);
    this.checkWritable(row.status, this.rules.adSetNoun, externalId);
    if (patch.budget || patch.endTime !== undefined) {
      const budget = patch.budget ?? { type: row.budgetType as Budget["type"], amountMinor: row.budgetMinor };
      const endTime = patch.endTime !== undefined ? (patch.endTime ? new Date(patch.endTime) : null) : row.endTime;
      const problem = budgetProblem(this.rules, this.platform, budget, { startTime: row.startTime ?? row.createdAt, endTime }, acct.currency);
      if (problem) throw this.invalid(problem);
    }
    applyNameFault(this.platform, this.rules.adSetNoun, patch.name ?? row.name, `${account.externalAccountId}:${patch.clientRef}:update`);
    const updated = await db.sandboxAdSet.update({
      where: { id: externalId },
      data: {
        ...(patch.name !== undefined ? { name: patch.name } : {}),
        ...(patch.status ? { status: this.rules.statusNames[patch.status] } : {}),
        ...(patch.budget ? { budgetType: patch.budget.type, budgetMinor: patch.budget.amountMinor } : {}),
        ...(patch.endTime !== undefined ? { endTime: patch.endTime ? new Date(patch.endTime) : null } : {}),
      },
    });
    return this.adSetOut(updated);
  }

  async createAd(account: AdAccountRef, write: AdWrite): Promise<PlatformAd> {
    await this.enter(account);
    const db = getDb();
    const key = { accountId_clientRef: { accountId: account.externalAccountId, clientRef: write.clientRef } };
    const existing = await db.sandboxAd.findUnique({ where: key });
    if (existing) return this.adOut(existing);
    const adSet = await db.sandboxAdSet.findFirst({ where: { id: write.adSetExternalId, accountId: account.externalAccountId } });
    if (!adSet) throw this.notFound(this.rules.adSetNoun, write.adSetExternalId);
    this.checkCreative(write.creative);
    applyNameFault(this.platform, "ad", write.name, `${account.externalAccountId}:${write.clientRef}:create`);
    const row = {
      id: this.newObjectId(account, write.clientRef, "ad"),
      accountId: account.externalAccountId,
      adSetId: adSet.id,
      clientRef: write.clientRef,
      name: write.name,
      status: this.rules.statusNames.paused,
      mediaId: write.creative.mediaId,
      mediaKind: write.creative.kind,
      headline: write.creative.headline,
      primaryText: write.creative.primaryText,
      description: write.creative.description,
      callToAction: this.rules.callToActionNames[write.creative.callToAction]!,
      landingUrl: write.creative.landingUrl,
      leadFormId: write.creative.leadFormId,
      quality: qualityOf(write.creative.mediaId),
    };
    const { count } = await db.sandboxAd.createMany({ data: [row], skipDuplicates: true });
    await slowAnswer(write.name);
    // Made now: answer what was written; otherwise a concurrent create of the same clientRef won, answer that.
    if (count) return this.adOut({ ...row, impressions: 0n, reach: 0, spendMinor: 0n, createdAt: new Date() });
    return this.adOut(await db.sandboxAd.findUniqueOrThrow({ where: key }));
  }

  async updateAd(
    account: AdAccountRef,
    externalId: string,
    patch: { name?: string; status?: AdObjectStatus; creative?: Partial<AdCreativeSpec>; clientRef: string },
  ) {
    await this.enter(account);
    const db = getDb();
    const row = await db.sandboxAd.findFirst({ where: { id: externalId, accountId: account.externalAccountId } });
    if (!row) throw this.notFound("ad", externalId);
    this.checkWritable(row.status, "ad", externalId);
    const c = patch.creative ?? {};
    if (patch.creative) this.checkCreative({ ...this.adOut(row).creative, ...c });
    applyNameFault(this.platform, "ad", patch.name ?? row.name, `${account.externalAccountId}:${patch.clientRef}:update`);
    const updated = await db.sandboxAd.update({
      where: { id: externalId },
      data: {
        ...(patch.name !== undefined ? { name: patch.name } : {}),
        ...(patch.status ? { status: this.rules.statusNames[patch.status] } : {}),
        ...(c.headline !== undefined ? { headline: c.headline } : {}),
        ...(c.primaryText !== undefined ? { primaryText: c.primaryText } : {}),
        ...(c.description !== undefined ? { description: c.description } : {}),
        ...(c.callToAction !== undefined ? { callToAction: this.rules.callToActionNames[c.callToAction]! } : {}),
        ...(c.landingUrl !== undefined ? { landingUrl: c.landingUrl } : {}),
      },
    });
    return this.adOut(updated);
  }

  async listAudiences(account: AdAccountRef) {
    takeCallToken(this.platform, account.externalAccountId);
    return sandboxAudiences(account.externalAccountId);
  }

  async getDailyInsights(account: AdAccountRef, query: { since: string; until: string; adExternalIds?: string[] }) {
    await this.enter(account);
    const rows = await getDb().sandboxAdDay.findMany({
      where: {
        accountId: account.externalAccountId,
        date: { gte: query.since, lte: query.until },
        ...(query.adExternalIds ? { adId: { in: query.adExternalIds } } : {}),
      },
      orderBy: [{ date: "asc" }, { adId: "asc" }],
    });
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
    const rows = await getDb().sandboxComment.findMany({
      where: {
        accountId: account.externalAccountId,
        deletedAt: null,
        // Published by the hour: what was written in the hour not yet delivered shows once it is, so
        // a reader moving forward by (createdAt, id) never sees an older comment appear behind it.
        createdAt: { lt: acct.deliveredThrough },
        ...(after
          ? query.afterExternalId
            ? { OR: [{ createdAt: { gt: after } }, { createdAt: after, id: { gt: query.afterExternalId } }] }
            : { createdAt: { gt: after } }
          : {}),
        ...(query.adExternalIds ? { adId: { in: query.adExternalIds } } : {}),
      },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      take: query.limit,
    });
    return rows.map(commentOut);
  }

  /** A comment people can act on: present, not deleted; its text steers faults like object names do. */
  private async actionableComment(account: AdAccountRef, commentExternalId: string, action: string) {
    const row = await getDb().sandboxComment.findFirst({ where: { id: commentExternalId, accountId: account.externalAccountId, deletedAt: null } });
    if (!row) throw this.notFound("comment", commentExternalId);
    applyCommentFault(this.platform, row.message, action);
    return row;
  }

  async setCommentHidden(account: AdAccountRef, commentExternalId: string, hidden: boolean) {
    await this.enter(account);
    await this.actionableComment(account, commentExternalId, hidden ? "hide" : "unhide");
    const updated = await getDb().sandboxComment.update({ where: { id: commentExternalId }, data: { hidden } });
    return commentOut(updated);
  }

  async replyToComment(account: AdAccountRef, commentExternalId: string, message: string, clientRef: string) {
    const acct = await this.enter(account);
    const parent = await this.actionableComment(account, commentExternalId, "reply to");
    if (parent.byPage) throw this.invalid("the page cannot reply to its own reply");
    if (!message.trim()) throw this.invalid("a reply needs a message");
    if (message.length > COMMENT_MAX_LENGTH) throw this.invalid(`a reply is at most ${COMMENT_MAX_LENGTH} characters`);
    // The same clientRef names the same reply: a retry whose first answer was lost does not post twice
    // (concurrent ones included: the second insert is skipped). A deleted reply is gone; then it posts anew.
    const db = getDb();
    const first = numericIdFrom(`${commentExternalId}:reply:${clientRef}`, 17);
    const existing = await db.sandboxComment.findUnique({ where: { id: first } });
    if (existing && !existing.deletedAt) return commentOut(existing);
    const id = existing ? numericIdFrom(`${first}:${randomUUID()}`, 17) : first;
    await db.sandboxComment.createMany({
      data: [
        {
          id,
          accountId: account.externalAccountId,
          adId: parent.adId,
          authorName: SANDBOX_ACCOUNT_SETTINGS[this.platform].name,
          message,
          parentId: parent.id,
          byPage: true,
          createdAt: new Date(simulatedNow(acct)),
        },
      ],
      skipDuplicates: true,
    });
    return commentOut(await db.sandboxComment.findUniqueOrThrow({ where: { id } }));
  }

  async deleteComment(account: AdAccountRef, commentExternalId: string) {
    const acct = await this.enter(account);
    await this.actionableComment(account, commentExternalId, "delete");
    // The comment and its replies go together, as on the real platforms.
    await getDb().sandboxComment.updateMany({
      where: { accountId: account.externalAccountId, OR: [{ id: commentExternalId }, { parentId: commentExternalId }], deletedAt: null },
      data: { deletedAt: new Date(simulatedNow(acct)) },
    });
  }

  async listLeadForms(account: AdAccountRef) {
    takeCallToken(this.platform, account.externalAccountId);
    return sandboxLeadForms(account.externalAccountId);
  }

  async listLeadSubmissions(account: AdAccountRef, query: LeadsQuery) {
    const row = await this.enter(account);
    const after = query.after ? new Date(query.after) : null;
    const rows = await getDb().sandboxLead.findMany({
      where: {
        accountId: account.externalAccountId,
        formId: query.formExternalId,
        // Only submissions of hours already delivered: seeded ones wait for their hour like real ones,
        // so nothing ever appears behind a position a reader has already passed.
        createdAt: { lt: row.deliveredThrough },
        ...(after
          ? query.afterId
            ? { OR: [{ createdAt: { gt: after } }, { createdAt: after, id: { gt: query.afterId } }] }
            : { createdAt: { gt: after } }
          : {}),
      },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      take: query.limit,
    });
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
    if (targeting.platform === "platform_a" && targeting.countries.length === 0) throw this.invalid("an ad set needs at least one target country");
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

  private campaignOut(row: SandboxCampaign): PlatformCampaign {
    return {
      externalId: row.id,
      clientRef: row.clientRef,
      name: row.name,
      objective: fromPlatformName<Objective>(this.rules.objectiveNames, row.objective) ?? "traffic",
      status: this.status(row.status),
      createdAt: row.createdAt.toISOString(),
    };
  }

  private adSetOut(row: SandboxAdSet): PlatformAdSet {
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

  private adOut(row: SandboxAd): PlatformAd {
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

export function commentOut(r: SandboxComment): AdComment {
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
