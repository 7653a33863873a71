import { z } from "zod";
import { isoDateTime } from "@/lib/iso-time";
import { defineOperation } from "@/lib/http/operation";
import { exportLeadsCsv } from "@/lib/leads/export-csv";

const isoTime = isoDateTime({ offset: true });

/** A REST-only operation (not a tool): its answer is a streamed file, not a JSON result. */
export const exportLeadsOperation = defineOperation({
  method: "GET",
  path: "/api/v1/leads/export.csv",
  operationId: "exportLeadsCsv",
  summary: "Export lead-ad submissions as CSV (streamed)",
  description:
    "The workspace's leads, oldest first, as `text/csv` (UTF-8 with a byte-order mark, CRLF line ends, RFC 4180 quoting): the columns " +
    "`lead_id, submitted_at, form_id, form_name, ad_id, ad_name, ad_external_id, platform_lead_id`, then one per question of the " +
    "exported forms. Several values of one field share a cell joined by `; `; a cell a spreadsheet would run as a formula starts " +
    "with an apostrophe. Streamed from the database in batches, so any size downloads with flat memory. Also answers the dashboard's session.",
  tag: "Leads",
  capability: "leads.export",
  allowSession: true,
  query: z.object({
    formId: z.string().min(1).max(100).optional().describe("Only this lead form's submissions (list_lead_forms id); all forms when absent"),
    submittedAfter: isoTime.optional().describe("Submitted at or after this time (ISO 8601)"),
    submittedBefore: isoTime.optional().describe("Submitted at or before this time (ISO 8601)"),
  }),
  errors: ["not_found"],
  success: { status: 200, description: "The CSV file (attachment)", contentType: "text/csv" },
  handler: async ({ principal, query }) => {
    const { body, fileName } = await exportLeadsCsv(principal, query);
    return new Response(body, {
      status: 200,
      headers: {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="${fileName}"`,
        "Cache-Control": "no-store",
        "X-Content-Type-Options": "nosniff",
      },
    });
  },
});
