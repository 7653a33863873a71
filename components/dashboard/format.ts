/** "Nov 22, 2026" in a locale-independent English form (same on server and client), in the user's time zone. */
export function formatDate(iso: string, timeZone = "UTC"): string {
  return new Date(iso).toLocaleDateString("en-US", { year: "numeric", month: "short", day: "numeric", timeZone });
}

/**
 * "Nov 22, 00:39:50 UTC" (or "GMT+1" in the user's zone). A 23-hour clock (00-23): `hour12: false` alone picks the h24 cycle in
 * en-US and prints midnight as "24".
 */
export function formatDateTime(iso: string, timeZone = "UTC"): string {
  return new Date(iso).toLocaleString("en-US", {
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

/** "3 minutes ago", falling back to the date after a week. */
export function formatRelative(iso: string, now = Date.now(), timeZone = "UTC"): string {
  const seconds = Math.round((now - new Date(iso).getTime()) / 1000);
  if (seconds < 60) return "just now";
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} minute${minutes === 1 ? "" : "s"} ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return `${hours} hour${hours === 1 ? "" : "s"} ago`;
  const days = Math.round(hours / 24);
  if (days < 7) return `${days} day${days === 1 ? "" : "s"} ago`;
  return formatDate(iso, timeZone);
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
