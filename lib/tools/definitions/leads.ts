import { z } from "zod";
import { isoDateTime } from "@/lib/iso-time";
import { listLeadForms } from "@/lib/leads/forms";
import { LeadFormSchema, LeadSchema } from "@/lib/leads/lead-schema";
import { getLead, listLeads } from "@/lib/leads/leads";
import { pullWorkspaceLeads } from "@/lib/leads/pull";
import { defineTool } from "../types";
import { idArg, pageArgs } from "./shared";

const isoTime = isoDateTime({ offset: true }).describe("ISO 8601 time");

export const leadTools = [
  defineTool({
    name: "list_lead_forms",
    title: "List lead forms",
    description:
      "The lead forms of the workspace's platform_a ad account (refreshed from the platform), each with how many submissions are stored and when it was last pulled. Submissions are pulled every minute, at most 1,000 per form per poll. " +
      "Counts only, so viewers may read it; the submissions themselves are list_leads.",
    category: "leads",
    capability: "ads.read",
    readOnly: true,
    destructive: false,
    input: z.strictObject({}),
    output: z.object({ forms: z.array(LeadFormSchema) }),
    handler: (principal) => listLeadForms(principal),
  }),
  defineTool({
    name: "list_leads",
    title: "List leads",
    description:
      "Lead-ad submissions, newest first, optionally of one form and within a submission-time range (inclusive). Paginated: pass nextCursor back as cursor. GET /api/v1/leads/export.csv streams the same as CSV. " +
      "They hold people's names and emails: the permission leads.export, as the export (not viewers).",
    category: "leads",
    capability: "leads.read",
    readOnly: true,
    destructive: false,
    input: z.strictObject({
      ...pageArgs({ defaultLimit: 50, maxLimit: 200 }),
      formId: idArg("Lead form").optional().describe("Only this form's submissions (list_lead_forms id)"),
      submittedAfter: isoTime.optional().describe("Submitted at or after this time"),
      submittedBefore: isoTime.optional().describe("Submitted at or before this time"),
    }),
    output: z.object({ leads: z.array(LeadSchema), nextCursor: z.string().nullable() }),
    handler: listLeads,
  }),
  defineTool({
    name: "get_lead",
    title: "Get lead",
    description: "One lead-ad submission with its form, ad and submitted fields (the permission leads.export, as list_leads).",
    category: "leads",
    capability: "leads.read",
    readOnly: true,
    destructive: false,
    input: z.strictObject({ id: idArg("Lead") }),
    output: z.object({ lead: LeadSchema }),
    handler: getLead,
  }),
  defineTool({
    name: "pull_leads",
    title: "Pull leads now",
    description:
      "Polls the workspace's lead forms now, as the scheduled job does every minute: the forms are refreshed and each form's new submissions stored (at most 1,000 per form). stored counts the new ones; a form that failed says why. " +
      "It stores people's names and emails: the permission leads.export, as list_leads (not viewers).",
    category: "leads",
    capability: "leads.pull",
    readOnly: false,
    destructive: false,
    input: z.strictObject({}),
    output: z.object({
      stored: z.number().int(),
      forms: z.array(z.object({ formId: z.string(), stored: z.number().int(), capped: z.boolean(), error: z.string().nullable() })),
      error: z.string().nullable().describe("Why the forms could not be refreshed, if so"),
    }),
    handler: async (principal) => {
      const pull = await pullWorkspaceLeads(principal.workspaceId);
      return { stored: pull.stored, forms: pull.forms.map(({ formId, stored, capped, error }) => ({ formId, stored, capped, error })), error: pull.error };
    },
  }),
];
