import { Cron } from "croner";

/**
 * Standard 5-field cron expressions (minute hour day-of-month month day-of-week), in UTC,
 * evaluated by croner: `*`, lists, ranges, steps, month/day names, 7 as Sunday, the
 * @hourly-style macros, and day-of-month OR day-of-week when both are restricted (as cron does).
 * An optional `TZ=UTC` prefix is accepted; other time zones are rejected, not guessed.
 */
export interface CronSchedule {
  /** The expression as the function declared it (the key of its schedule row). */
  expression: string;
  /** The parsed pattern; never started, only asked for fire times. */
  pattern: Cron;
}

/** Parses a cron expression; throws with the expression in the message when invalid. */
export function parseCron(expression: string): CronSchedule {
  let expr = expression.trim();
  const tz = /^(?:CRON_TZ|TZ)=(\S+)\s+/.exec(expr);
  if (tz) {
    if (!["UTC", "Etc/UTC", "GMT"].includes(tz[1]!)) throw new Error(`Cron "${expression}": only UTC is supported by the embedded runner`);
    expr = expr.slice(tz[0].length);
  }
  if (expr.startsWith("@")) expr = expr.toLowerCase();
  else if (expr.split(/\s+/).length !== 5) throw new Error(`Cron "${expression}": expected 5 fields`);
  try {
    // sloppyRanges: `5/10` (from 5, every 10) stays accepted, as before croner.
    const pattern = new Cron(expr, { timezone: "UTC", mode: "5-part", domAndDow: false, sloppyRanges: true, paused: true });
    return { expression, pattern };
  } catch (err) {
    throw new Error(`Cron "${expression}": a field is malformed or out of range (${(err as Error).message})`);
  }
}

/** The first fire time strictly after `after` (UTC, minute precision). */
export function nextFireTime(s: CronSchedule, after: Date): Date {
  const next = s.pattern.nextRun(after);
  if (!next) throw new Error(`Cron "${s.expression}" never fires`);
  return next;
}
