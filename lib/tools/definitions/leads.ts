import { z } from "zod";
import { listLeadForms } from "@/lib/leads/forms";
import { LeadFormSchema, LeadSchema } from "@/lib/leads/lead-schema";
import { getLead, listLeads } from "@/lib/leads/leads";
import { defineTool } from "../types";
import { idArg, pageArgs } from "./shared";

const isoTime = z.iso.datetime({ offset: true }).describe("ISO 8601 time");

export const leadTools = [
  defineTool({
    name: "list_lead_forms",
    title: "List lead forms",
    description:
      "The lead forms of the workspace's platform_a ad account (refreshed from the platform), each with how many submissions are stored and when it was last pulled. Submissions are pulled every minute, at most 1,000 per form per poll.",
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
      "Lead-ad submissions, newest first, optionally of one form and within a submission-time range (inclusive). Paginated: pass nextCursor back as cursor. GET /api/v1/leads/export.csv streams the same as CSV.",
    category: "leads",
    capability: "ads.read",
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
    description: "One lead-ad submission with its form, ad and submitted fields.",
    category: "leads",
    capability: "ads.read",
    readOnly: true,
    destructive: false,
    input: z.strictObject({ id: idArg("Lead") }),
    output: z.object({ lead: LeadSchema }),
    handler: getLead,
  }),
];
