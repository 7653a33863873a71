"use client";
import { resultOf, type ToolArgs, type ToolInput, type ToolName, type ToolOutput } from "@/components/dashboard/tool-call";
import { callAdsTool } from "./actions";

export type Account = ToolOutput<"list_ad_accounts">["accounts"][number];
export type Campaign = ToolOutput<"list_campaigns">["campaigns"][number];
export type AdSet = ToolOutput<"list_ad_sets">["adSets"][number];
export type Ad = ToolOutput<"list_ads">["ads"][number];
export type PlatformName = Account["platform"];
export const PLATFORM_LABEL: Record<PlatformName, string> = { platform_a: "Platform A", platform_b: "Platform B" };

/** Calls a tool of the catalog as the signed-in member (the same tools the API serves); failures throw ApiError. */
export async function tool<N extends ToolName>(name: N, ...[args]: ToolArgs<N>): Promise<ToolOutput<N>> {
  return resultOf(await callAdsTool(name, args ?? ({} as ToolInput<N>)));
}

export function money(amountMinor: number, currency: string): string {
  return `${(amountMinor / 100).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })} ${currency}`;
}

export const adSetNoun = (platform: PlatformName) => (platform === "platform_a" ? "ad set" : "ad group");
