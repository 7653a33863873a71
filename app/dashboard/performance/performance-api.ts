"use client";
import { callTool } from "@/components/dashboard/tool-call";

export type Label = "winner" | "loser" | "fatigued" | "neutral";
export type Goal = "cpa" | "roas";

export interface InsightRow {
  id: string;
  name: string;
  date: string | null;
  impressions: number;
  clicks: number;
  spend: number;
  conversions: number;
  ctr: number | null;
  cpa: number | null;
  roas: number | null;
}
export interface Insights {
  currency: string;
  since: string;
  until: string;
  rows: InsightRow[];
}
export interface CreativePerformance {
  creativeId: string;
  fileName: string;
  label: Label;
  reason: string;
  impressions: number;
  clicks: number;
  spend: number;
  conversions: number;
  ctr: number | null;
  cpa: number | null;
  roas: number | null;
  frequency: number | null;
  liveAds: number;
}
export interface Variant {
  creativeId: string;
  fileName: string;
  value: number | null;
  sample: number;
  probabilityToBeBest: number;
}
export interface CreativeTest {
  id: string;
  name: string;
  metric: "ctr" | "conversion_rate" | "cpa";
  status: "running" | "completed" | "stopped";
  outcome: "won" | "lost" | null;
  winnerCreativeId: string | null;
  minSample: number;
  threshold: number;
  endsAt: string;
  progress: { variants: Variant[]; minSampleReached: boolean; leaderCreativeId: string | null; leaderProbability: number | null };
}

/** The page reads and writes through the catalog's tools (POST /api/v1/tools/{name}), as API clients do. */
export const tool = callTool;

export const percent = (v: number | null, digits = 2) => (v === null ? "–" : `${(v * 100).toFixed(digits)}%`);
export const amount = (v: number | null, currency = "") => (v === null ? "–" : `${v.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}${currency ? ` ${currency}` : ""}`);
