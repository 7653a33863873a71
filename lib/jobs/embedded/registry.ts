import type { InngestFunction } from "inngest";
import { parseCron, type CronSchedule } from "./cron";
import { parseExpression, type Expression } from "./expression";
import { configuredRetries, syncedConfigs } from "./inngest-internals";

/** What the runner needs to know about one served function (incl. `onFailure` handlers). */
export interface FunctionDef {
  /** Full id, `<appId>-<id>`: the serve handler's `fnId`. */
  id: string;
  name: string;
  maxAttempts: number;
  events: { name: string; expression?: Expression }[];
  crons: CronSchedule[];
}

/** Inngest retries a function or step 4 times after the first attempt unless told otherwise. */
export const DEFAULT_RETRIES = 4;

/** Builds the runner's view of `functions`; throws on triggers it cannot honour. */
export function buildRegistry(appId: string, functions: readonly InngestFunction.Any[]): FunctionDef[] {
  const defs: FunctionDef[] = [];
  for (const fn of functions) {
    // The registration payload the SDK would sync to Inngest; we read the same data.
    for (const cfg of syncedConfigs(fn, appId)) {
      const retries = configuredRetries(cfg) ?? DEFAULT_RETRIES;
      const def: FunctionDef = { id: cfg.id, name: cfg.name ?? cfg.id, maxAttempts: retries + 1, events: [], crons: [] };
      for (const t of cfg.triggers ?? []) {
        try {
          if ("cron" in t) def.crons.push(parseCron(t.cron));
          else def.events.push({ name: t.event, expression: t.expression ? parseExpression(t.expression) : undefined });
        } catch (err) {
          throw new Error(`Function "${cfg.id}": ${(err as Error).message}`);
        }
      }
      if (defs.some((d) => d.id === def.id)) throw new Error(`Duplicate function id "${def.id}"`);
      defs.push(def);
    }
  }
  return defs;
}
