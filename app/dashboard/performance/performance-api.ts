"use client";
import { callTool, type ToolOutput } from "@/components/dashboard/tool-call";

export type Goal = ToolOutput<"get_performance_goal">["goal"];
export type Insights = ToolOutput<"get_insights">;
export type Label = ToolOutput<"list_creative_performance">["creatives"][number]["label"];
export type CreativeTest = ToolOutput<"list_creative_tests">["tests"][number];

/** The page reads and writes through the catalog's tools (POST /api/v1/tools/{name}), as API clients do. */
export const tool = callTool;

export const percent = (v: number | null, digits = 2) => (v === null ? "–" : `${(v * 100).toFixed(digits)}%`);
export const amount = (v: number | null, currency = "") =>
  v === null ? "–" : `${v.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}${currency ? ` ${currency}` : ""}`;
