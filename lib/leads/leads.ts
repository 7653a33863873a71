import type { Principal } from "@/lib/auth/principal";
import { getDb } from "@/lib/db/client";
import { notFound } from "@/lib/errors";
import type { Prisma } from "@/lib/generated/prisma/client";
import { decodeCursor, encodeCursor } from "@/lib/pagination/cursor";
import { findLeadForm } from "./forms";
import { toLeadOut, type LeadOut } from "./lead-schema";

export interface LeadFilter {
  formId?: string;
  /** Inclusive bounds on the submission time (ISO 8601). */
  submittedAfter?: string;
  submittedBefore?: string;
}

/** The `where` of the workspace's leads under a filter; another workspace's form id is not_found. */
export async function leadsWhere(principal: Pick<Principal, "workspaceId">, filter: LeadFilter): Promise<Prisma.LeadWhereInput> {
  if (filter.formId) await findLeadForm(principal, filter.formId);
  const submittedAt: Prisma.DateTimeFilter = {};
  if (filter.submittedAfter) submittedAt.gte = new Date(filter.submittedAfter);
  if (filter.submittedBefore) submittedAt.lte = new Date(filter.submittedBefore);
  return {
    workspaceId: principal.workspaceId,
    ...(filter.formId ? { formId: filter.formId } : {}),
    ...(filter.submittedAfter || filter.submittedBefore ? { submittedAt } : {}),
  };
}

/** Leads newest first (by submission time), keyset-paginated. */
export async function listLeads(
  principal: Pick<Principal, "workspaceId">,
  input: LeadFilter & { limit: number; cursor?: string },
): Promise<{ leads: LeadOut[]; nextCursor: string | null }> {
  const db = getDb();
  const where = await leadsWhere(principal, input);
  const after = input.cursor ? decodeCursor(input.cursor) : null;
  const rows = await db.lead.findMany({
    where: after ? { AND: [where, { OR: [{ submittedAt: { lt: after.createdAt } }, { submittedAt: after.createdAt, id: { lt: after.id } }] }] } : where,
    orderBy: [{ submittedAt: "desc" }, { id: "desc" }],
    take: input.limit + 1,
  });
  const page = rows.slice(0, input.limit);
  const forms = await formsById(principal, [...new Set(page.map((r) => r.formId))]);
  const last = page[page.length - 1];
  return {
    leads: page.map((r) => toLeadOut(r, forms.get(r.formId) ?? { id: r.formId, name: "" })),
    nextCursor: rows.length > input.limit && last ? encodeCursor({ createdAt: last.submittedAt, id: last.id }) : null,
  };
}

/** One lead of the workspace. */
export async function getLead(principal: Pick<Principal, "workspaceId">, input: { id: string }): Promise<{ lead: LeadOut }> {
  const row = await getDb().lead.findFirst({ where: { id: input.id, workspaceId: principal.workspaceId } });
  if (!row) throw notFound("Lead");
  const form = await findLeadForm(principal, row.formId);
  return { lead: toLeadOut(row, form) };
}

export async function formsById(principal: Pick<Principal, "workspaceId">, ids: string[]) {
  if (!ids.length) return new Map<string, { id: string; name: string; questions: string[] }>();
  const forms = await getDb().leadForm.findMany({
    where: { workspaceId: principal.workspaceId, id: { in: ids } },
    select: { id: true, name: true, questions: true },
  });
  return new Map(forms.map((f) => [f.id, f]));
}
