import { stringify } from "csv-stringify/sync";
import type { Principal } from "@/lib/auth/principal";
import { getDb } from "@/lib/db/client";
import type { Lead } from "@/lib/generated/prisma/client";
import { leadsWhere, type LeadFilter } from "./leads";
import { FORM_ORDER, type LeadField } from "./lead-schema";

/** Rows read from the database per query while streaming: memory stays flat whatever the export's size. */
export const EXPORT_BATCH = 1_000;

/** Several values of one field share its cell, joined by this. */
export const VALUE_SEPARATOR = "; ";

const FIXED_COLUMNS = ["lead_id", "submitted_at", "form_id", "form_name", "ad_id", "ad_name", "ad_external_id", "platform_lead_id"];

/**
 * Spreadsheets run a cell that starts with = + - @ (or a tab or carriage return) as a formula, and
 * submitted fields come from anyone, the header's question keys from the platform: such cells get a
 * leading apostrophe, except plain numbers such as phone numbers (`+1 555 0100`), which are harmless.
 */
export function neutralizeFormula(value: string): string {
  if (!/^[=+\-@\t\r]/.test(value)) return value;
  if (/^[+-][\d\s().-]*$/.test(value)) return value;
  return `'${value}`;
}

/**
 * The workspace's leads as CSV (oldest first; one column per question of the exported forms),
 * streamed from the database in keyset-paginated batches. Checks the filter (another workspace's
 * form is not_found) before the first byte, so failures still get a proper error answer.
 */
export async function exportLeadsCsv(
  principal: Pick<Principal, "workspaceId">,
  filter: LeadFilter,
): Promise<{ body: ReadableStream<Uint8Array>; fileName: string }> {
  const db = getDb();
  const where = await leadsWhere(principal, filter);
  const forms = await db.leadForm.findMany({
    where: { workspaceId: principal.workspaceId, ...(filter.formId ? { id: filter.formId } : {}) },
    orderBy: FORM_ORDER,
  });
  const formNames = new Map(forms.map((f) => [f.id, f.name]));
  const questions = [...new Set(forms.flatMap((f) => f.questions))];

  const options = { record_delimiter: "windows" } as const;
  // One chunk per database batch, made only when the reader asks for more (pull): at most one batch
  // is in memory, whatever the export's size. The byte-order mark makes spreadsheets read UTF-8.
  async function* chunks(): AsyncGenerator<string> {
    // The questions' keys name the columns and come from the platform (a custom question's key is the advertiser's
    // words): neutralized as the cells are.
    yield "\uFEFF" + stringify([[...FIXED_COLUMNS, ...questions].map(neutralizeFormula)], options);
    let after: Pick<Lead, "submittedAt" | "id"> | null = null;
    for (;;) {
      const batch: Lead[] = await db.lead.findMany({
        where: after ? { AND: [where, { OR: [{ submittedAt: { gt: after.submittedAt } }, { submittedAt: after.submittedAt, id: { gt: after.id } }] }] } : where,
        orderBy: [{ submittedAt: "asc" }, { id: "asc" }],
        take: EXPORT_BATCH,
      });
      if (batch.length)
        yield stringify(
          batch.map((lead) => csvRecord(lead, formNames.get(lead.formId) ?? "", questions)),
          options,
        );
      if (batch.length < EXPORT_BATCH) return;
      after = batch[batch.length - 1]!;
    }
  }
  const source = chunks();
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const next = await source.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(next.value));
      },
      async cancel() {
        await source.return(undefined);
      },
    },
    { highWaterMark: 1 },
  );
  const scope = filter.formId ? (formNames.get(filter.formId) ?? "form") : "all-forms";
  const fileName = `leads-${
    scope
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "") || "form"
  }.csv`;
  return { body, fileName };
}

function csvRecord(lead: Lead, formName: string, questions: string[]): string[] {
  const values = new Map((lead.fields as LeadField[]).map((f) => [f.name, f.values.join(VALUE_SEPARATOR)]));
  return [
    lead.id,
    lead.submittedAt.toISOString(),
    lead.formId,
    formName,
    lead.adId ?? "",
    lead.adName ?? "",
    lead.adExternalId ?? "",
    lead.externalId,
    ...questions.map((q) => values.get(q) ?? ""),
  ].map(neutralizeFormula);
}
