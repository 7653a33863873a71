import { getDb } from "@/lib/db/client";
import { sqlTime } from "@/lib/db/sql-time";
import { emitEventsInTransaction } from "@/lib/events/emit";
import type { LeadForm } from "@/lib/generated/prisma/client";
import { newId } from "@/lib/ids";
import type { LeadSubmission } from "@/lib/platforms/ads-types";
import { LEADS_PLATFORM } from "./lead-schema";

/** A position in the platform's order of a form's submissions: createdAt, then externalId. */
export interface LeadCursor {
  at: Date;
  externalId: string;
}

const INSERT_LEADS = `
  INSERT INTO leads (id, "workspaceId", "formId", "externalId", "adExternalId", "adId", "adName", fields, "submittedAt", "receivedAt")
  SELECT t.id, $1::text, $2::text, t.ext, t.adext, t.adid, t.adname, t.fields::jsonb, t.sub::timestamp(3), $3::timestamp(3)
    FROM unnest($4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[]) AS t(id, ext, adext, adid, adname, fields, sub)
  ON CONFLICT ("formId", "externalId") DO NOTHING
  RETURNING id, "externalId"`;

// The cursor only moves forward: another instance that stored a later page first keeps its position.
const ADVANCE_CURSOR = `
  UPDATE lead_forms SET
    "cursorAt" = CASE WHEN "cursorAt" IS NULL OR ("cursorAt", "cursorExternalId") < ($2::timestamp(3), $3::text) THEN $2::timestamp(3) ELSE "cursorAt" END,
    "cursorExternalId" = CASE WHEN "cursorAt" IS NULL OR ("cursorAt", "cursorExternalId") < ($2::timestamp(3), $3::text) THEN $3::text ELSE "cursorExternalId" END,
    "leadCount" = "leadCount" + $4::int,
    "updatedAt" = $5::timestamp(3)
  WHERE id = $1::text
  RETURNING (extract(epoch from "cursorAt") * 1000)::float8 AS "cursorMs", "cursorExternalId"`;

/**
 * Stores one page of a form's submissions (oldest first, as the platform listed them after the
 * form's cursor) in ONE transaction: the leads not stored before, one `lead.received` per lead
 * stored, and the cursor moved to the page's last submission. A crash anywhere leaves all of it
 * or none; a page stored twice (two instances, a retried step) stores nothing the second time.
 * Answers how many were new and the form's cursor afterwards.
 */
export async function storeLeadPage(form: LeadForm, page: LeadSubmission[]): Promise<{ stored: number; cursor: LeadCursor | null }> {
  const last = page[page.length - 1];
  if (!last) return { stored: 0, cursor: form.cursorAt && form.cursorExternalId ? { at: form.cursorAt, externalId: form.cursorExternalId } : null };
  const db = getDb();
  const adExternalIds = [...new Set(page.map((s) => s.adExternalId).filter((id): id is string => id !== null))];
  const ads = adExternalIds.length
    ? await db.ad.findMany({
        where: { workspaceId: form.workspaceId, platform: LEADS_PLATFORM, externalId: { in: adExternalIds } },
        select: { id: true, name: true, externalId: true },
      })
    : [];
  const adByExternal = new Map(ads.map((a) => [a.externalId, a]));
  const rows = page.map((s) => ({ id: newId("lead"), submission: s, ad: s.adExternalId ? (adByExternal.get(s.adExternalId) ?? null) : null }));
  const now = new Date();

  const { stored, cursor, afterCommit } = await db.$transaction(
    async (tx) => {
      const inserted = await tx.$queryRawUnsafe<{ id: string; externalId: string }[]>(
        INSERT_LEADS,
        form.workspaceId,
        form.id,
        sqlTime(now),
        rows.map((r) => r.id),
        rows.map((r) => r.submission.externalId),
        rows.map((r) => r.submission.adExternalId),
        rows.map((r) => r.ad?.id ?? null),
        rows.map((r) => r.ad?.name ?? null),
        rows.map((r) => JSON.stringify(r.submission.fields)),
        rows.map((r) => r.submission.createdAt),
      );
      const storedIds = new Set(inserted.map((r) => r.id));
      const events = rows
        .filter((r) => storedIds.has(r.id))
        .map((r) => ({
          dedupeKey: `lead.received:${form.id}:${r.submission.externalId}`,
          data: {
            lead: { leadId: r.id, submittedAt: new Date(r.submission.createdAt).toISOString() },
            form: { formId: form.id, name: form.name },
            ad: r.ad ? { adId: r.ad.id, name: r.ad.name } : null,
            adExternalId: r.submission.adExternalId,
            fields: r.submission.fields,
          },
        }));
      const emitted = await emitEventsInTransaction(tx, form.workspaceId, "lead.received", events);
      const [moved] = await tx.$queryRawUnsafe<{ cursorMs: number; cursorExternalId: string }[]>(
        ADVANCE_CURSOR,
        form.id,
        last.createdAt,
        last.externalId,
        storedIds.size,
        sqlTime(now),
      );
      return {
        stored: storedIds.size,
        cursor: moved ? { at: new Date(moved.cursorMs), externalId: moved.cursorExternalId } : null,
        afterCommit: emitted.afterCommit,
      };
    },
    { timeout: 60_000, maxWait: 30_000 },
  );
  await afterCommit();
  return { stored, cursor };
}
