import { badRequest, notFound } from "@/lib/errors";
import { getAdAccount } from "../accounts";
import { LEAD_NAMES, sandboxLeadForms } from "./catalog";
import { advanceClock, HOUR_MS, sandboxAccount } from "./clock";
import { insertLeads, type NewLead } from "./batches";
import { row as oneRow, TABLE } from "./store";
import { syncDelivery } from "./delivery";
import { hash32, numericIdFrom, seededRandom } from "./seeded";

export const MAX_SEEDED_LEADS = 200_000;

export interface SeedLeadsInput {
  workspaceId: string;
  count: number;
  /** The form's platform id; the account's first form when absent. */
  formExternalId?: string;
  /** Every submission at the same instant (exercises readers' tiebreak on equal timestamps). */
  sameTime?: boolean;
  /** Field values every submission carries instead of generated ones (name -> value). */
  values?: Record<string, string>;
}

/**
 * Makes `count` submissions on a platform_a sandbox lead form at once (tests, benchmarks): they are
 * dated inside the next simulated hour, then the clock moves one hour on, so they appear together
 * with that hour's delivery, exactly like leads the platform collected (never behind a reader's position).
 */
export async function seedSandboxLeads(input: SeedLeadsInput): Promise<{ workspaceId: string; formId: string; leads: number; simulatedNow: string }> {
  if (!Number.isInteger(input.count) || input.count < 1 || input.count > MAX_SEEDED_LEADS) {
    throw badRequest(`--count must be a whole number from 1 to ${MAX_SEEDED_LEADS}`);
  }
  const account = await getAdAccount(input.workspaceId, "platform_a");
  if (account?.mode !== "sandbox") throw notFound("Sandbox platform_a ad account of the workspace");
  const forms = sandboxLeadForms(account.externalAccountId);
  const form = input.formExternalId ? forms.find((f) => f.externalId === input.formExternalId) : forms[0];
  if (!form) throw notFound(`Lead form ${input.formExternalId}`);
  const row = await sandboxAccount(account);
  await syncDelivery(row);
  const hourStart = row.deliveredThrough.getTime();
  const ad = await oneRow<{ id: string }>(
    `SELECT id FROM ${TABLE.ads} WHERE "accountId" = $1 AND "leadFormId" = $2 ORDER BY id LIMIT 1`,
    account.externalAccountId,
    form.externalId,
  );
  const random = seededRandom(hash32(`${form.externalId}:${hourStart}:${input.count}`));
  const batch = `${hourStart}:${random()}`;
  const sameAt = hourStart + Math.floor(random() * HOUR_MS);
  const rows: NewLead[] = [];
  for (let i = 0; i < input.count; i++) {
    const name = LEAD_NAMES[Math.floor(random() * LEAD_NAMES.length)]!;
    const generated: Record<string, string> = {
      full_name: name,
      email: `${name.toLowerCase().replace(/\s+/g, ".")}.${i}@example.com`,
      phone_number: `+1555${String(Math.floor(random() * 10_000_000)).padStart(7, "0")}`,
    };
    const values = { ...generated, ...input.values };
    rows.push({
      id: numericIdFrom(`${form.externalId}:seed:${batch}:${i}`, 16),
      accountId: account.externalAccountId,
      formId: form.externalId,
      adId: ad?.id ?? null,
      fields: form.questions.map((q) => ({ name: q, values: [values[q] ?? ""] })),
      createdAt: new Date(input.sameTime ? sameAt : hourStart + Math.floor(random() * HOUR_MS)),
    });
  }
  await insertLeads(rows);
  await advanceClock(row, 3600);
  await syncDelivery(row);
  return {
    workspaceId: input.workspaceId,
    formId: form.externalId,
    leads: rows.length,
    simulatedNow: new Date(Date.now() + row.offsetSeconds * 1000).toISOString(),
  };
}
