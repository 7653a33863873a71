import { describe, expect, it } from "vitest";
import { nextFireTime, parseCron } from "./cron";

const next = (expr: string, after: string) => nextFireTime(parseCron(expr), new Date(after)).toISOString();

describe("cron schedules (UTC)", () => {
  it("computes the next fire time strictly after the given moment", () => {
    expect(next("*/5 * * * *", "2030-01-01T00:01:10Z")).toBe("2030-01-01T00:05:00.000Z");
    expect(next("*/5 * * * *", "2030-01-01T00:05:00Z")).toBe("2030-01-01T00:10:00.000Z");
    expect(next("0 9 * * 1-5", "2030-01-04T10:00:00Z")).toBe("2030-01-07T09:00:00.000Z"); // Friday -> Monday
    expect(next("30 23 31 12 *", "2030-06-01T00:00:00Z")).toBe("2030-12-31T23:30:00.000Z");
    expect(next("0 0 29 2 *", "2030-03-01T00:00:00Z")).toBe("2032-02-29T00:00:00.000Z");
  });

  it("ORs day-of-month and day-of-week when both are restricted, and reads names and macros", () => {
    expect(next("0 0 13 * fri", "2030-01-01T00:00:00Z")).toBe("2030-01-04T00:00:00.000Z"); // Friday the 4th comes first
    expect(next("0 12 * JAN-MAR 7", "2030-04-01T00:00:00Z")).toBe("2031-01-05T12:00:00.000Z"); // 7 is Sunday
    expect(next("@hourly", "2030-01-01T10:59:59Z")).toBe("2030-01-01T11:00:00.000Z");
    expect(next("TZ=UTC 15 14 1 * *", "2030-01-01T14:16:00Z")).toBe("2030-02-01T14:15:00.000Z");
  });

  it("rejects what it cannot honour", () => {
    expect(() => parseCron("61 * * * *")).toThrow(/out of range/);
    expect(() => parseCron("* * * *")).toThrow(/5 fields/);
    expect(() => parseCron("TZ=Europe/Paris 0 9 * * *")).toThrow(/only UTC/);
  });
});
