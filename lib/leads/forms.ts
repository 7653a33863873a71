import type { Principal } from "@/lib/auth/principal";
import { getDb } from "@/lib/db/client";
import { notFound } from "@/lib/errors";
import type { LeadForm } from "@/lib/generated/prisma/client";
import { newId } from "@/lib/ids";
import { adapterFor, getAdAccount, PlatformError, type AdAccountRef, type PlatformAdapter } from "@/lib/platforms";
import { FORM_ORDER, LEADS_PLATFORM, toLeadFormOut, type LeadFormOut } from "./lead-schema";

/** The workspace's platform_a ad account and its adapter, or null when none is connected. */
export async function leadsAccount(workspaceId: string): Promise<{ account: AdAccountRef; api: PlatformAdapter } | null> {
  const account = await getAdAccount(workspaceId, LEADS_PLATFORM);
  return account ? { account, api: adapterFor(account) } : null;
}

/**
 * Brings the stored forms in line with the platform's list (new forms, renamed ones, changed
 * questions, status), keeping each form's cursor. Answers the account's stored forms.
 */
export async function syncLeadForms(workspaceId: string, account: AdAccountRef, api: PlatformAdapter): Promise<LeadForm[]> {
  const db = getDb();
  const forms = await api.listLeadForms(account);
  // createMany + updateMany rather than upsert: two instances syncing at once must not collide on the unique key.
  await db.leadForm.createMany({
    data: forms.map((form) => ({
      id: newId("lf"),
      workspaceId,
      adAccountId: account.id,
      platform: LEADS_PLATFORM,
      externalId: form.externalId,
      name: form.name,
      questions: form.questions,
      status: form.status,
    })),
    skipDuplicates: true,
  });
  for (const form of forms) {
    await db.leadForm.updateMany({
      where: { adAccountId: account.id, externalId: form.externalId, NOT: { name: form.name, questions: { equals: form.questions }, status: form.status } },
      data: { name: form.name, questions: form.questions, status: form.status },
    });
  }
  return db.leadForm.findMany({ where: { workspaceId, adAccountId: account.id }, orderBy: FORM_ORDER });
}

/**
 * The workspace's lead forms, refreshed from the platform first; while the platform refuses
 * (rate limit, outage), the forms already known.
 */
export async function listLeadForms(principal: Pick<Principal, "workspaceId">): Promise<{ forms: LeadFormOut[] }> {
  const connected = await leadsAccount(principal.workspaceId);
  const db = getDb();
  let rows: LeadForm[] | null = null;
  if (connected) {
    try {
      rows = await syncLeadForms(principal.workspaceId, connected.account, connected.api);
    } catch (err) {
      if (!(err instanceof PlatformError)) throw err;
    }
  }
  rows ??= await db.leadForm.findMany({ where: { workspaceId: principal.workspaceId }, orderBy: FORM_ORDER });
  return { forms: rows.map(toLeadFormOut) };
}

/** One form of the workspace; another workspace's (or an unknown) id is not_found. */
export async function findLeadForm(principal: Pick<Principal, "workspaceId">, formId: string): Promise<LeadForm> {
  const form = await getDb().leadForm.findFirst({ where: { id: formId, workspaceId: principal.workspaceId } });
  if (!form) throw notFound("Lead form");
  return form;
}
