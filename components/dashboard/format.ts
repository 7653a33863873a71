/** How one member reads dates and times: their IANA zone and BCP 47 locale (profile settings). */
export interface MemberClock {
  timeZone: string;
  locale: string;
}

export const DEFAULT_CLOCK: MemberClock = { timeZone: "UTC", locale: "en-US" };

/** A bare zone string is read as that zone in en-US (for callers that only know a zone, like an ad account's). */
const clockOf = (clock: MemberClock | string | undefined): MemberClock =>
  clock === undefined ? DEFAULT_CLOCK : typeof clock === "string" ? { timeZone: clock, locale: "en-US" } : clock;

/**
 * "Nov 22, 2026" (en-US) or "22. Nov. 2026" (de-DE) in the member's zone. Both the server render and the browser
 * get the same zone and locale passed explicitly, so the text is identical on both (no hydration mismatch).
 */
export function formatDate(iso: string, clock?: MemberClock | string): string {
  const { timeZone, locale } = clockOf(clock);
  return new Date(iso).toLocaleDateString(locale, { year: "numeric", month: "short", day: "numeric", timeZone });
}

/**
 * "Nov 22, 00:39:50 UTC" (or "22. Nov., 00:39:50 MEZ" in de-DE, Europe/Berlin). A 23-hour clock (00-23): `hour12: false`
 * alone picks the h24 cycle in en-US and prints midnight as "24".
 */
export function formatDateTime(iso: string, clock?: MemberClock | string): string {
  const { timeZone, locale } = clockOf(clock);
  return new Date(iso).toLocaleString(locale, {
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
    timeZone,
    timeZoneName: "short",
  });
}

/** "3 minutes ago" ("vor 3 Minuten" in de-DE), falling back to the date after a week. */
export function formatRelative(iso: string, now = Date.now(), clock?: MemberClock | string): string {
  const resolved = clockOf(clock);
  const relative = new Intl.RelativeTimeFormat(resolved.locale, { numeric: "auto" });
  const seconds = Math.round((now - new Date(iso).getTime()) / 1000);
  if (seconds < 60) return relative.format(0, "second");
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return relative.format(-minutes, "minute");
  const hours = Math.round(minutes / 60);
  if (hours < 24) return relative.format(-hours, "hour");
  const days = Math.round(hours / 24);
  if (days < 7) return relative.format(-days, "day");
  return formatDate(iso, resolved);
}

/** "1.2 MB". */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KB", "MB", "GB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

/** "1,234.50 USD": an amount in major units with its currency code. */
export function formatMoney(amount: number, currency: string): string {
  return `${amount.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })} ${currency}`;
}

/** "12,345". */
export const formatCount = (n: number) => n.toLocaleString("en-US");

/** "1.23%" for a rate (0.0123); "–" when there is none (nothing to divide by). */
export const formatPercent = (rate: number | null) => (rate === null ? "–" : `${(rate * 100).toFixed(2)}%`);
