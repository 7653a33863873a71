const formatters = new Map<string, Intl.DateTimeFormat>();

/** The day (YYYY-MM-DD) and hour (0-23) of the instant in the IANA time zone: an ad account's day, on every platform. */
export function localDayHour(ms: number, timeZone: string): { date: string; hour: number } {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", hourCycle: "h23" });
    formatters.set(timeZone, f);
  }
  const parts = Object.fromEntries(f.formatToParts(new Date(ms)).map((p) => [p.type, p.value]));
  return { date: `${parts.year}-${parts.month}-${parts.day}`, hour: Number(parts.hour) % 24 };
}
