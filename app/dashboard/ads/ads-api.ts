"use client";
import { resultOf, type ToolArgs, type ToolInput, type ToolName, type ToolOutput } from "@/components/dashboard/tool-call";
import { currencyDigits, toMajor } from "@/lib/money";
import { callAdsTool } from "./actions";

export type Account = ToolOutput<"list_ad_accounts">["accounts"][number];
export type Campaign = ToolOutput<"list_campaigns">["campaigns"][number];
export type AdSet = ToolOutput<"list_ad_sets">["adSets"][number];
export type Ad = ToolOutput<"list_ads">["ads"][number];
export type PlatformName = Account["platform"];
export { PLATFORM_LABEL } from "@/components/dashboard/ad-account-label";

/** Calls a tool of the catalog as the signed-in member (the same tools the API serves); failures throw ApiError. */
export async function tool<N extends ToolName>(name: N, ...[args]: ToolArgs<N>): Promise<ToolOutput<N>> {
  return resultOf(await callAdsTool(name, args ?? ({} as ToolInput<N>)));
}

/** An amount in the currency's minor units, in its major units ("1,234.50 USD", "1,234 JPY"). */
export function money(amountMinor: number, currency: string): string {
  const digits = currencyDigits(currency);
  return `${toMajor(amountMinor, currency).toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits })} ${currency}`;
}

/** What a bulk change says about the ads the platform refused (the others were changed). */
export function refusedAds(done: string, failed: { adId: string; message: string }[]): string {
  const first = failed[0]!;
  return `${failed.length} ad${failed.length === 1 ? " was" : "s were"} not ${done}: ${first.message}${failed.length > 1 ? ` (and ${failed.length - 1} more)` : ""}. The others were.`;
}

export const adSetNoun = (platform: PlatformName) => (platform === "platform_a" ? "ad set" : "ad group");
