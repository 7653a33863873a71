import { describe, expect, it } from "vitest";
import { formatDate, formatDateTime, formatRelative, type MemberClock } from "@/components/dashboard/format";
import { canonicalLocale, localeFromAcceptLanguage } from "@/lib/account/profile";

const berlin: MemberClock = { timeZone: "Europe/Berlin", locale: "de-DE" };

describe("times shown in the dashboard", () => {
  it("use a 23-hour clock: the first hour after midnight is 00, never 24", () => {
    expect(formatDateTime("2026-11-24T00:39:50Z")).toBe("Nov 24, 00:39:50 UTC");
    expect(formatDateTime("2026-11-24T23:05:00Z")).toBe("Nov 24, 23:05:00 UTC");
  });

  it("are written in the member's locale and zone", () => {
    expect(formatDate("2026-11-22T10:00:00Z", berlin)).toBe("22. Nov. 2026");
    expect(formatDateTime("2026-11-22T10:00:00Z", berlin)).toBe("22. Nov., 11:00:00 MEZ");
    expect(formatDate("2026-11-22T10:00:00Z", { timeZone: "America/New_York", locale: "en-GB" })).toBe("22 Nov 2026");
    // A bare zone keeps the en-US wording (ad accounts know a zone, not a reader).
    expect(formatDateTime("2026-11-22T10:00:00Z", "America/New_York")).toBe("Nov 22, 05:00:00 EST");
  });

  it("put the calendar day in the member's zone, not UTC", () => {
    expect(formatDate("2026-11-22T23:30:00Z", { timeZone: "Asia/Tokyo", locale: "en-US" })).toBe("Nov 23, 2026");
    expect(formatDate("2026-11-22T23:30:00Z", { timeZone: "America/Los_Angeles", locale: "en-US" })).toBe("Nov 22, 2026");
  });

  it("follow daylight saving time across both changes of the year", () => {
    expect(formatDateTime("2026-03-29T00:59:59Z", berlin)).toBe("29. März, 01:59:59 MEZ");
    expect(formatDateTime("2026-03-29T01:00:00Z", berlin)).toBe("29. März, 03:00:00 MESZ");
    // The hour from 02:00 to 03:00 happens twice in October; the zone name tells them apart.
    expect(formatDateTime("2026-10-25T00:30:00Z", berlin)).toBe("25. Okt., 02:30:00 MESZ");
    expect(formatDateTime("2026-10-25T01:30:00Z", berlin)).toBe("25. Okt., 02:30:00 MEZ");
    expect(formatDateTime("2026-03-08T07:00:00Z", { timeZone: "America/New_York", locale: "en-US" })).toBe("Mar 8, 03:00:00 EDT");
  });

  it("say how long ago in the member's language, then fall back to the date", () => {
    const now = Date.parse("2026-11-22T12:00:00Z");
    expect(formatRelative("2026-11-22T11:57:00Z", now, berlin)).toBe("vor 3 Minuten");
    expect(formatRelative("2026-11-22T09:00:00Z", now)).toBe("3 hours ago");
    expect(formatRelative("2026-11-21T12:00:00Z", now)).toBe("yesterday");
    expect(formatRelative("2026-11-01T12:00:00Z", now, berlin)).toBe("1. Nov. 2026");
  });
});

describe("the member's locale", () => {
  it("is canonicalised and refused when the runtime cannot format in it", () => {
    expect(canonicalLocale("de-de")).toBe("de-DE");
    expect(canonicalLocale("not a locale")).toBeNull();
  });

  it("defaults to the first usable language of the browser", () => {
    expect(localeFromAcceptLanguage("de-DE,de;q=0.9,en;q=0.8")).toBe("de-DE");
    expect(localeFromAcceptLanguage("*, fr-FR;q=0.5")).toBe("fr-FR");
    expect(localeFromAcceptLanguage("")).toBeNull();
    expect(localeFromAcceptLanguage(null)).toBeNull();
  });
});
