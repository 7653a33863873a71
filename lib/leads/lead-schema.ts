import { z } from "zod";
import type { Lead, LeadForm } from "@/lib/generated/prisma/client";

/** Zod schemas of the leads domain: tool arguments and results are written once, here. */

/** Lead ads come from platform_a's lead forms (platform_b has none in this service). */
export const LEADS_PLATFORM = "platform_a" as const;

/**
 * At most this many submissions per form per poll. A busy form catches up over the next polls
 * (every minute by default): it bounds one poll's work and one poll's burst of `lead.received`.
 */
export const LEADS_PER_FORM_PER_POLL = 1_000;
/** Submissions asked of the platform per call, each page stored in its own transaction. */
export const LEADS_PAGE_SIZE = 250;

/** Forms in the order they were first seen; those seen together (one platform list) by name. */
export const FORM_ORDER = [{ createdAt: "asc" as const }, { name: "asc" as const }, { id: "asc" as const }];

export const LeadFieldSchema = z.object({ name: z.string(), values: z.array(z.string()) });
export type LeadField = z.infer<typeof LeadFieldSchema>;

export const LeadFormSchema = z.object({
  id: z.string().describe("The form's id here (lf_...)"),
  externalId: z.string().describe("The platform's form id (what create_ad's leadFormId takes)"),
  platform: z.literal(LEADS_PLATFORM),
  name: z.string(),
  questions: z.array(z.string()).describe("The field names a submission carries"),
  status: z.string().describe("active or archived"),
  leadCount: z.number().int().describe("Submissions stored so far"),
  lastPolledAt: z.string().nullable().describe("When the form was last pulled (ISO 8601)"),
  lastError: z.string().nullable().describe("Why the last pull failed; null after a successful one"),
});

export const LeadSchema = z.object({
  id: z.string().describe("The lead's id here (lead_...)"),
  externalId: z.string().describe("The platform's submission id"),
  form: z.object({ formId: z.string(), name: z.string() }),
  ad: z.object({ adId: z.string(), name: z.string() }).nullable().describe("The workspace's ad the submission came from; null when unknown"),
  adExternalId: z.string().nullable().describe("The platform's ad id, when the platform names one"),
  submittedAt: z.string().describe("When the person submitted the form (ISO 8601)"),
  receivedAt: z.string().describe("When Adloom stored it"),
  fields: z.array(LeadFieldSchema),
});

export type LeadFormOut = z.infer<typeof LeadFormSchema>;
export type LeadOut = z.infer<typeof LeadSchema>;

export function toLeadFormOut(row: LeadForm): LeadFormOut {
  return {
    id: row.id,
    externalId: row.externalId,
    platform: LEADS_PLATFORM,
    name: row.name,
    questions: row.questions,
    status: row.status,
    leadCount: row.leadCount,
    lastPolledAt: row.lastPolledAt?.toISOString() ?? null,
    lastError: row.lastError,
  };
}

export function toLeadOut(row: Lead, form: Pick<LeadForm, "id" | "name">): LeadOut {
  return {
    id: row.id,
    externalId: row.externalId,
    form: { formId: form.id, name: form.name },
    ad: row.adId ? { adId: row.adId, name: row.adName ?? "" } : null,
    adExternalId: row.adExternalId,
    submittedAt: row.submittedAt.toISOString(),
    receivedAt: row.receivedAt.toISOString(),
    fields: row.fields as LeadField[],
  };
}
