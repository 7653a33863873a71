import { withBusyRetry } from "@/lib/ads/platform-access";
import { getDb } from "@/lib/db/client";
import type { LeadForm } from "@/lib/generated/prisma/client";
import { platformWaitSeconds, type AdAccountRef, type PlatformAdapter } from "@/lib/platforms";
import { leadsAccount, syncLeadForms } from "./forms";
import { LEADS_PAGE_SIZE, LEADS_PER_FORM_PER_POLL } from "./lead-schema";
import { storeLeadPage, type LeadCursor } from "./store-page";

export interface FormPull {
  formId: string;
  externalId: string;
  /** Submissions the platform listed this poll. */
  fetched: number;
  /** Of those, stored now (the rest were stored before, e.g. by another instance). */
  stored: number;
  /** The cap was reached: the rest waits for the next poll. */
  capped: boolean;
  error: string | null;
  /** The platform is rate limiting: the wait it asked for (seconds) before this form is pulled again. */
  retryAfterSeconds?: number;
}

export interface WorkspacePull {
  workspaceId: string;
  stored: number;
  forms: FormPull[];
  /** Why the account's forms could not be listed (nothing was pulled). */
  error: string | null;
  /** The platform is rate limiting (the forms or a form): the longest wait it asked for, in seconds. */
  retryAfterSeconds?: number;
}

/**
 * One poll of the workspace's lead forms: the forms are refreshed from the platform, then each
 * form's submissions after its cursor are stored, at most `cap` per form (LEADS_PER_FORM_PER_POLL).
 * A form that fails is recorded (`lastError`) and the others go on. Safe to run concurrently
 * (instances, the scheduled job and `admin leads pull`): see storeLeadPage.
 */
export async function pullWorkspaceLeads(workspaceId: string, options: { cap?: number } = {}): Promise<WorkspacePull> {
  const cap = Math.max(1, Math.min(options.cap ?? LEADS_PER_FORM_PER_POLL, LEADS_PER_FORM_PER_POLL));
  // Marked first, whatever the poll then finds (no account, no forms, an error): the scheduled poll's queue moves on.
  await getDb().workspace.updateMany({ where: { id: workspaceId }, data: { leadsPolledAt: new Date() } });
  const connected = await leadsAccount(workspaceId);
  if (!connected) return { workspaceId, stored: 0, forms: [], error: null };
  let forms: LeadForm[];
  try {
    forms = await withBusyRetry(() => syncLeadForms(workspaceId, connected.account, connected.api));
  } catch (err) {
    const wait = platformWaitSeconds(err);
    return { workspaceId, stored: 0, forms: [], error: messageOf(err), ...(wait ? { retryAfterSeconds: wait } : {}) };
  }
  const results: FormPull[] = [];
  for (const form of forms) results.push(await pullForm(form, connected.account, connected.api, cap));
  const waits = results.map((r) => r.retryAfterSeconds ?? 0);
  const wait = Math.max(0, ...waits);
  return { workspaceId, stored: results.reduce((n, r) => n + r.stored, 0), forms: results, error: null, ...(wait ? { retryAfterSeconds: wait } : {}) };
}

async function pullForm(form: LeadForm, account: AdAccountRef, api: PlatformAdapter, cap: number): Promise<FormPull> {
  const db = getDb();
  const result: FormPull = { formId: form.id, externalId: form.externalId, fetched: 0, stored: 0, capped: false, error: null };
  let cursor: LeadCursor | null = form.cursorAt && form.cursorExternalId ? { at: form.cursorAt, externalId: form.cursorExternalId } : null;
  try {
    while (result.fetched < cap) {
      const limit = Math.min(LEADS_PAGE_SIZE, cap - result.fetched);
      const page = await withBusyRetry(() =>
        api.listLeadSubmissions(account, {
          formExternalId: form.externalId,
          ...(cursor ? { after: cursor.at.toISOString(), afterId: cursor.externalId } : {}),
          limit,
        }),
      );
      result.fetched += page.length;
      if (!page.length) break;
      const saved = await storeLeadPage(form, page);
      result.stored += saved.stored;
      // Resume from the form's stored cursor: if another instance got further meanwhile, skip ahead.
      cursor = saved.cursor;
      if (page.length < limit) break;
      if (result.fetched >= cap) result.capped = true;
    }
    await db.leadForm.update({ where: { id: form.id }, data: { lastPolledAt: new Date(), lastError: null } });
  } catch (err) {
    result.error = messageOf(err);
    const wait = platformWaitSeconds(err);
    if (wait) result.retryAfterSeconds = wait;
    await db.leadForm.update({ where: { id: form.id }, data: { lastPolledAt: new Date(), lastError: result.error } }).catch(() => undefined);
  }
  return result;
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * Active workspaces with a platform_a ad account, each once, least recently polled first: what a scheduled
 * poll covers. Every poll moves its workspace to the back (`leadsPolledAt`), so workspaces whose poll finds
 * nothing (no forms, a disconnected account) cannot keep the others out.
 */
export async function workspacesToPoll(limit: number): Promise<string[]> {
  const rows = await getDb().$queryRawUnsafe<{ workspaceId: string }[]>(
    `SELECT w.id AS "workspaceId"
       FROM workspaces w
      WHERE w.status = 'active'
        AND EXISTS (SELECT 1 FROM ad_accounts a WHERE a."workspaceId" = w.id AND a.platform = 'platform_a')
      ORDER BY w."leadsPolledAt" ASC NULLS FIRST, w.id
      LIMIT $1`,
    limit,
  );
  return rows.map((r) => r.workspaceId);
}
