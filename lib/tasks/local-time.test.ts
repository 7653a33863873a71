import { expect, it } from "vitest";
import { addDays, isTimeZone, localTime } from "./local-time";

it("reads wall-clock time in a zone, across a daylight-saving change", () => {
  // New York leaves DST on 2026-11-01 at 02:00: 08:00 local is 12:00 UTC the day before, 13:00 UTC that day.
  expect(localTime(new Date("2026-10-31T12:00:00Z"), "America/New_York")).toEqual({ date: "2026-10-31", hour: 8, minute: 0 });
  expect(localTime(new Date("2026-11-01T12:00:00Z"), "America/New_York")).toEqual({ date: "2026-11-01", hour: 7, minute: 0 });
  expect(localTime(new Date("2026-11-01T13:00:00Z"), "America/New_York")).toEqual({ date: "2026-11-01", hour: 8, minute: 0 });
  expect(localTime(new Date("2026-11-24T23:30:00Z"), "Asia/Tokyo")).toEqual({ date: "2026-11-25", hour: 8, minute: 30 });
  expect(localTime(new Date("2026-11-24T00:00:00Z"), "UTC").hour).toBe(0); // h23: never "24"
});

it("adds calendar days over month and year ends, and checks zone names", () => {
  expect(addDays("2026-12-31", 1)).toBe("2027-01-01");
  expect(addDays("2026-03-01", -1)).toBe("2026-02-28");
  expect(isTimeZone("Europe/Berlin")).toBe(true);
  expect(isTimeZone("Mars/Olympus")).toBe(false);
});
