import { describe, expect, it } from "vitest";
import { requestIdFor, tiktokTime, toAmount, toMinor } from "./ads";
import { businessApiError } from "./client";
import { reportWindows } from "./reporting";

describe("TikTok return codes as tool codes", () => {
  const classify = (code: number, message = "m") => {
    const err = businessApiError(200, { code, message, request_id: "r", data: {} });
    return [err.code, err.retryable, err.authRefused];
  };

  // The numbers: TikTok's NumericErrorCodes (tiktok/tiktok-business-api-sdk, tiktok_business/tiktok_code.py).
  it("token and permission refusals need reconnecting", () => {
    for (const code of [40001, 40101, 40102, 40103, 40104, 40105, 40106, 40107, 40110, 40113, 40114, 40130])
      expect(classify(code)).toEqual(["not_connected", false, true]);
  });

  it("40100, 40132, 40016 and 61000 are TikTok's rate limits, not authorization refusals", () => {
    for (const code of [40100, 40132, 40016, 61000]) expect(classify(code)).toEqual(["upstream_busy", true, false]);
    expect(businessApiError(200, { code: 40100, message: "Requests made too frequently." }).headers["Retry-After"]).toBe("60");
  });

  it("parameter errors carry TikTok's message and code; system errors are retryable", () => {
    const err = businessApiError(200, { code: 40002, message: "budget: Must be at least 20." });
    expect([err.code, err.retryable, err.message]).toEqual(["invalid_input", false, "platform_b refused the call: budget: Must be at least 20. (code 40002)"]);
    for (const code of [40007, 40900, 40911, 40118, 40117]) expect(classify(code)).toEqual(["invalid_input", false, false]);
    for (const code of [50000, 50002, 51000, 52001, 60001, 40202, 40901]) expect(classify(code)).toEqual(["upstream_error", true, false]);
    for (const code of [20001, 70001]) expect(classify(code)).toEqual(["upstream_error", false, false]);
    expect(businessApiError(502, undefined).code).toBe("upstream_error");
  });
});

describe("TikTok money, times and request ids", () => {
  it("converts minor units with the currency's digits", () => {
    expect(toAmount(6000, "USD")).toBe(60);
    expect(toMinor(12.34, "USD")).toBe(1234);
    expect(toAmount(6000, "JPY")).toBe(6000);
    expect(toMinor(6000, "JPY")).toBe(6000);
  });

  it("schedules in UTC as YYYY-MM-DD HH:MM:SS", () => {
    expect(tiktokTime("2026-03-01T10:20:30.456Z")).toBe("2026-03-01 10:20:30");
  });

  it("derives a stable int64 request_id per account and clientRef", () => {
    const a = requestIdFor("adacct_1", "spring");
    expect(a).toMatch(/^\d+$/);
    expect(BigInt(a) < 2n ** 63n).toBe(true);
    expect(requestIdFor("adacct_1", "spring")).toBe(a);
    expect(requestIdFor("adacct_2", "spring")).not.toBe(a);
  });
});

describe("report windows", () => {
  it("cuts a range into windows of at most 30 days and looks back a year at most", () => {
    expect(reportWindows("2026-01-01", "2026-01-01")).toEqual([{ start: "2026-01-01", end: "2026-01-01" }]);
    expect(reportWindows("2026-01-01", "2026-02-15")).toEqual([
      { start: "2026-01-01", end: "2026-01-30" },
      { start: "2026-01-31", end: "2026-02-15" },
    ]);
    const far = reportWindows("2000-01-01", "2026-12-31");
    expect(far[0]!.start).toBe("2026-01-01");
    expect(far.at(-1)!.end).toBe("2026-12-31");
    expect(far.length).toBe(13);
  });
});
