import { toMinor as minorUnits } from "@/lib/money";
import { PLATFORM_A_RULES as RULES } from "./rules";
import type { AdObjectStatus, CallToAction, Objective } from "../../ads-types";

/**
 * Our neutral names <-> the Marketing API's, from Meta's rules (./rules.ts), and the
 * client reference carried in object names.
 *
 * Meta has no idempotency key for creates, so the clientRef rides in the object's name as a
 * trailing ` [adloom:<ref>]`; a create first looks for an object whose name carries it (Graph
 * `filtering` on name CONTAIN), so a step re-run after a crash finds its earlier write.
 */
export const tagged = (name: string, clientRef: string) => `${name} [adloom:${clientRef}]`;
export const refTag = (clientRef: string) => `[adloom:${clientRef}]`;

export function untag(name: string): { name: string; clientRef: string } {
  const m = / \[adloom:([^\]]+)\]$/.exec(name ?? "");
  return m ? { name: name.slice(0, m.index), clientRef: m[1]! } : { name: name ?? "", clientRef: "" };
}

export const objectiveName = (o: Objective) => RULES.objectiveNames[o];
export function objectiveOf(name: string): Objective {
  const found = (Object.entries(RULES.objectiveNames) as [Objective, string][]).find(([, v]) => v === name);
  return found?.[0] ?? "traffic";
}

export const statusName = (s: AdObjectStatus) => RULES.statusNames[s];
export function statusOf(name: string): AdObjectStatus {
  const found = (Object.entries(RULES.statusNames) as [AdObjectStatus, string][]).find(([, v]) => v === name);
  return found?.[0] ?? "paused";
}

export function callToActionName(cta: CallToAction): string {
  const name = RULES.callToActionNames[cta];
  if (!name) throw new Error(`platform_a has no call to action ${cta}`);
  return name;
}
export function callToActionOf(name: string): CallToAction {
  const found = (Object.entries(RULES.callToActionNames) as [CallToAction, string][]).find(([, v]) => v === name);
  return found?.[0] ?? "learn_more";
}

/**
 * The ad set's optimization goal per objective (with billing_event IMPRESSIONS). Sales optimise for
 * link clicks: conversions need a pixel (promoted_object), which accounts connect outside Adloom.
 */
export const OPTIMIZATION_GOALS: Record<Objective, string> = {
  traffic: "LINK_CLICKS",
  sales: "LINK_CLICKS",
  leads: "LEAD_GENERATION",
  awareness: "REACH",
  engagement: "POST_ENGAGEMENT",
};

/** Graph datetimes (`2026-11-25T10:00:00-0500`) as ISO 8601 UTC. */
export function isoTime(value: unknown): string | null {
  if (typeof value !== "string" || !value) return null;
  const normalized = value.replace(/([+-]\d{2})(\d{2})$/, "$1:$2");
  const date = new Date(normalized);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** Meta reports money in major units ("12.34"): as whole minor units of the currency. */
export const toMinor = (amount: unknown, currency: string) => minorUnits(Number(amount ?? 0), currency);
