import { authorize } from "@/lib/auth/authorize";
import type { Principal } from "@/lib/auth/principal";
import { listLeadForms } from "@/lib/leads/forms";
import { type LeadFilter, listLeads } from "@/lib/leads/leads";

/** The Leads page's reads, authorized as list_lead_forms (`ads.read`) and list_leads (`leads.read`) are. */
export async function leadForms(principal: Principal) {
  authorize(principal, "ads.read");
  return listLeadForms(principal);
}

export async function leadsPage(principal: Principal, input: LeadFilter & { limit: number; cursor?: string }) {
  authorize(principal, "leads.read");
  return listLeads(principal, input);
}
