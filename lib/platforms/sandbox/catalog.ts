import type { LeadForm, PlatformAudience } from "../ads-types";
import { numericIdFrom } from "./seeded";

/** Saved audiences every sandbox account has (deterministic ids per account). */
export function sandboxAudiences(accountId: string): PlatformAudience[] {
  return [
    { name: "Website visitors, last 30 days", description: "People who visited the site in the last 30 days", approximateSize: 120_000 },
    { name: "Lookalike 1% of purchasers", description: "People similar to past purchasers", approximateSize: 2_100_000 },
    { name: "Engaged with the page", description: "People who engaged with the brand's page or profile", approximateSize: 48_000 },
  ].map((a, i) => ({ externalId: numericIdFrom(`${accountId}:audience:${i}`, 17), ...a }));
}

/** Lead forms every sandbox account has. */
export function sandboxLeadForms(accountId: string): LeadForm[] {
  return [
    { name: "Newsletter sign-up", questions: ["full_name", "email"] },
    { name: "Request a quote", questions: ["full_name", "email", "phone_number"] },
  ].map((f, i) => ({ externalId: numericIdFrom(`${accountId}:leadform:${i}`, 16), status: "active" as const, ...f }));
}

export const COMMENT_AUTHORS = ["Alex Moreno", "Priya Shah", "Jordan Lee", "Sam Okafor", "Mia Novak", "Chris Tan", "Lena Weber", "Omar Haddad"];

/** What people write under ads: praise, questions, complaints and spam (moderation has real work). */
export const COMMENT_MESSAGES = [
  "Love this! Where can I buy it?",
  "How much does shipping cost?",
  "Is this available in Europe?",
  "Ordered last week, still waiting for a reply from support.",
  "This looks amazing 😍",
  "Scam. Don't buy.",
  "Does it come in other colors?",
  "Check my profile for FREE followers!!! 🔥🔥",
  "Got mine yesterday, great quality.",
  "Too expensive for what it is.",
  "DM me for a 90% discount code www.cheap-deals.example",
  "Can I return it if it doesn't fit?",
];

export const LEAD_NAMES = ["Avery Johnson", "Noah Williams", "Emma Brown", "Liam Garcia", "Olivia Martinez", "Ethan Davis", "Sofia Rossi", "Lucas Silva"];
