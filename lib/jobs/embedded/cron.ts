/**
 * Standard 5-field cron expressions (minute hour day-of-month month day-of-week), in UTC.
 * Supports `*`, lists, ranges, steps, month/day names, 7 as Sunday, the @hourly-style
 * macros and an optional `TZ=UTC` prefix. Other time zones are rejected, not guessed.
 */
export interface CronSchedule {
  expression: string;
  minutes: Set<number>;
  hours: Set<number>;
  daysOfMonth: Set<number>;
  months: Set<number>;
  daysOfWeek: Set<number>;
  /** Whether day-of-month / day-of-week were restricted (cron ORs them when both are). */
  domRestricted: boolean;
  dowRestricted: boolean;
}

const MACROS: Record<string, string> = {
  "@yearly": "0 0 1 1 *",
  "@annually": "0 0 1 1 *",
  "@monthly": "0 0 1 * *",
  "@weekly": "0 0 * * 0",
  "@daily": "0 0 * * *",
  "@midnight": "0 0 * * *",
  "@hourly": "0 * * * *",
};
const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const DAYS = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"];

function parseValue(token: string, names: string[] | undefined, offset: number): number {
  const idx = names?.indexOf(token.toLowerCase()) ?? -1;
  if (idx >= 0) return idx + offset;
  if (!/^\d+$/.test(token)) throw new Error(`bad value "${token}"`);
  return Number(token);
}

function parseField(field: string, min: number, max: number, names?: string[], nameOffset = 0): Set<number> {
  const out = new Set<number>();
  for (const part of field.split(",")) {
    const [rangePart, stepPart] = part.split("/");
    const step = stepPart === undefined ? 1 : Number(stepPart);
    if (!Number.isInteger(step) || step < 1) throw new Error(`bad step in "${part}"`);
    let lo: number;
    let hi: number;
    if (rangePart === "*") [lo, hi] = [min, max];
    else if (rangePart!.includes("-")) {
      const [a, b] = rangePart!.split("-");
      [lo, hi] = [parseValue(a!, names, nameOffset), parseValue(b!, names, nameOffset)];
    } else {
      lo = parseValue(rangePart!, names, nameOffset);
      hi = stepPart === undefined ? lo : max;
    }
    if (lo < min || hi > max || lo > hi) throw new Error(`"${part}" is out of range ${min}-${max}`);
    for (let v = lo; v <= hi; v += step) out.add(v);
  }
  return out;
}

/** Parses a cron expression; throws with the expression in the message when invalid. */
export function parseCron(expression: string): CronSchedule {
  let expr = expression.trim();
  const tz = /^(?:CRON_TZ|TZ)=(\S+)\s+/.exec(expr);
  if (tz) {
    if (!["UTC", "Etc/UTC", "GMT"].includes(tz[1]!)) throw new Error(`Cron "${expression}": only UTC is supported by the embedded runner`);
    expr = expr.slice(tz[0].length);
  }
  expr = MACROS[expr.toLowerCase()] ?? expr;
  const fields = expr.split(/\s+/);
  if (fields.length !== 5) throw new Error(`Cron "${expression}": expected 5 fields`);
  try {
    const [min, hour, dom, mon, dow] = fields as [string, string, string, string, string];
    const daysOfWeek = parseField(dow, 0, 7, DAYS);
    if (daysOfWeek.delete(7)) daysOfWeek.add(0);
    return {
      expression,
      minutes: parseField(min, 0, 59),
      hours: parseField(hour, 0, 23),
      daysOfMonth: parseField(dom, 1, 31),
      months: parseField(mon, 1, 12, MONTHS, 1),
      daysOfWeek,
      domRestricted: dom !== "*",
      dowRestricted: dow !== "*",
    };
  } catch (err) {
    throw new Error(`Cron "${expression}": ${(err as Error).message}`);
  }
}

function dayMatches(s: CronSchedule, d: Date): boolean {
  const dom = s.daysOfMonth.has(d.getUTCDate());
  const dow = s.daysOfWeek.has(d.getUTCDay());
  if (s.domRestricted && s.dowRestricted) return dom || dow;
  return dom && dow;
}

/** The first fire time strictly after `after` (UTC, minute precision). */
export function nextFireTime(s: CronSchedule, after: Date): Date {
  const t = new Date(after.getTime());
  t.setUTCSeconds(0, 0);
  t.setUTCMinutes(t.getUTCMinutes() + 1);
  const limit = after.getTime() + 8 * 366 * 86_400_000;
  while (t.getTime() <= limit) {
    if (!s.months.has(t.getUTCMonth() + 1)) {
      t.setUTCMonth(t.getUTCMonth() + 1, 1);
      t.setUTCHours(0, 0, 0, 0);
    } else if (!dayMatches(s, t)) {
      t.setUTCDate(t.getUTCDate() + 1);
      t.setUTCHours(0, 0, 0, 0);
    } else if (!s.hours.has(t.getUTCHours())) {
      t.setUTCHours(t.getUTCHours() + 1, 0, 0, 0);
    } else if (!s.minutes.has(t.getUTCMinutes())) {
      t.setUTCMinutes(t.getUTCMinutes() + 1, 0, 0);
    } else {
      return t;
    }
  }
  throw new Error(`Cron "${s.expression}" never fires`);
}
