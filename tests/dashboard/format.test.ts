import { describe, expect, it } from "vitest";
import { formatDateTime } from "@/components/dashboard/format";

describe("times shown in the dashboard", () => {
  it("use a 23-hour clock: the first hour after midnight is 00, never 24", () => {
    expect(formatDateTime("2026-11-24T00:39:50Z")).toBe("Nov 24, 00:39:50 UTC");
    expect(formatDateTime("2026-11-24T23:05:00Z")).toBe("Nov 24, 23:05:00 UTC");
  });
});
