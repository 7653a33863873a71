/** Calendar arithmetic in a named (IANA) time zone, with the platform's own zone data (DST included). */

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-CA", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    });
    formatters.set(timeZone, f);
  }
  return f;
}

export function isTimeZone(value: string): boolean {
  try {
    formatter(value);
    return true;
  } catch {
    return false;
  }
}

/** The wall-clock date (YYYY-MM-DD) and time at `instant` in `timeZone`. */
export function localTime(instant: Date, timeZone: string): { date: string; hour: number; minute: number } {
  const parts = Object.fromEntries(
    formatter(timeZone)
      .formatToParts(instant)
      .map((p) => [p.type, p.value]),
  );
  return { date: `${parts.year}-${parts.month}-${parts.day}`, hour: Number(parts.hour), minute: Number(parts.minute) };
}

/** A calendar date `days` later (or earlier). */
export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** A date-only column's value as YYYY-MM-DD. */
export function toDateString(value: Date): string {
  return value.toISOString().slice(0, 10);
}

/** YYYY-MM-DD as the Date a date-only column stores. */
export function fromDateString(value: string): Date {
  return new Date(`${value}T00:00:00Z`);
}
