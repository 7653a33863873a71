"use client";
import { ApiError } from "@/components/dashboard/api";
import { callAdsTool } from "./actions";

export type PlatformName = "platform_a" | "platform_b";
export const PLATFORM_LABEL: Record<PlatformName, string> = { platform_a: "Platform A", platform_b: "Platform B" };

export interface Account {
  id: string;
  platform: PlatformName;
  externalAccountId: string;
  name: string;
  currency: string;
  timeZone: string;
  status: string;
  today: string;
}
export interface Campaign {
  id: string;
  platform: PlatformName;
  name: string;
  objective: string;
  status: string;
}
export interface AdSet {
  id: string;
  campaignId: string;
  platform: PlatformName;
  kind: "ad_set" | "ad_group";
  name: string;
  status: string;
  budget: { type: "daily" | "lifetime"; amountMinor: number };
  targetCountries: string[] | null;
  locationIds: string[] | null;
}
export interface Ad {
  id: string;
  adSetId: string;
  name: string;
  status: string;
  headline: string | null;
  today: { spendMinor: number; impressions: number; clicks: number } | null;
  last7Days: { spendMinor: number } | null;
}

/** Calls a tool of the catalog as the signed-in member (the same tools the API serves); failures throw ApiError. */
export async function tool<T>(name: string, args: Record<string, unknown> = {}): Promise<T> {
  const answer = await callAdsTool(name, args);
  if (!answer.ok) throw new ApiError(answer.status, answer.code, answer.message);
  return answer.result as T;
}

export function money(amountMinor: number, currency: string): string {
  return `${(amountMinor / 100).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })} ${currency}`;
}

export const adSetNoun = (platform: PlatformName) => (platform === "platform_a" ? "ad set" : "ad group");
