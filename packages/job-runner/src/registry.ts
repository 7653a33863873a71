import type { InngestFunction } from "inngest";
import { parseCron, type CronSchedule } from "./cron";
import { parseExpression, type Expression } from "./expression";
import { configuredRetries, SYNCED_BASE_KEYS, syncedConfigs, type SyncedConfig } from "./inngest-internals";

/** What the runner needs to know about one served function (incl. `onFailure` handlers). */
export interface FunctionDef {
  /** Full id, `<appId>-<id>`: the serve handler's `fnId`. */
  id: string;
  name: string;
  maxAttempts: number;
  events: { name: string; expression?: Expression }[];
  crons: CronSchedule[];
  /** Most runs of this function driven at once, across every runner on the database (null: no limit). */
  concurrencyLimit: number | null;
}

/** The function options the runner honours; a function declaring any other one is refused at start. */
export const HONOURED_OPTIONS: ReadonlySet<string> = new Set(["concurrency"]);

/** Inngest retries a function or step 4 times after the first attempt unless told otherwise. */
export const DEFAULT_RETRIES = 4;

/** Builds the runner's view of `functions`; throws on triggers it cannot honour. */
export function buildRegistry(appId: string, functions: readonly InngestFunction.Any[]): FunctionDef[] {
  const defs: FunctionDef[] = [];
  for (const fn of functions) {
    // The registration payload the SDK would sync to Inngest; we read the same data.
    for (const cfg of syncedConfigs(fn, appId)) {
      const retries = configuredRetries(cfg) ?? DEFAULT_RETRIES;
      const def: FunctionDef = { id: cfg.id, name: cfg.name ?? cfg.id, maxAttempts: retries + 1, events: [], crons: [], concurrencyLimit: null };
      try {
        refuseUnsupportedOptions(cfg);
        def.concurrencyLimit = concurrencyLimitOf(cfg);
        for (const t of cfg.triggers ?? []) {
          if ("cron" in t) def.crons.push(parseCron(t.cron));
          else def.events.push({ name: t.event, expression: t.expression ? parseExpression(t.expression) : undefined });
        }
      } catch (err) {
        throw new Error(`Function "${cfg.id}": ${(err as Error).message}`);
      }
      if (defs.some((d) => d.id === def.id)) throw new Error(`Duplicate function id "${def.id}"`);
      defs.push(def);
    }
  }
  return defs;
}

/**
 * Inngest would apply every flow-control option a function declares; running it here without one
 * (a throttle, a debounce, a cancellation) would silently change what the function does, so the
 * runner refuses to start instead.
 */
function refuseUnsupportedOptions(cfg: SyncedConfig): void {
  const unsupported = Object.keys(cfg).filter((key) => !SYNCED_BASE_KEYS.has(key) && !HONOURED_OPTIONS.has(key) && cfg[key] !== undefined);
  if (unsupported.length) {
    throw new Error(
      `the embedded job runner does not support the option(s) ${unsupported.map((o) => `"${o}"`).join(", ")}; ` +
        `it honours ${[...HONOURED_OPTIONS].map((o) => `"${o}"`).join(", ")} (run on Inngest, or drop the option)`,
    );
  }
}

/** The function-wide concurrency limit: a number or one `{ limit }` scoped to the function. Keys and other scopes are refused. */
function concurrencyLimitOf(cfg: SyncedConfig): number | null {
  const declared = cfg.concurrency;
  if (declared === undefined) return null;
  const options = Array.isArray(declared) ? declared : [typeof declared === "number" ? { limit: declared } : declared];
  if (options.length !== 1) throw new Error(`the embedded job runner supports one concurrency limit per function, not ${options.length}`);
  const [option] = options;
  if (option!.key !== undefined) throw new Error(`the embedded job runner does not support a concurrency "key" (${option!.key})`);
  if (option!.scope !== undefined && option!.scope !== "fn")
    throw new Error(`the embedded job runner supports concurrency scoped to the function only, not "${option!.scope}"`);
  if (!Number.isInteger(option!.limit) || option!.limit < 0) throw new Error(`concurrency limit must be a whole number, got ${option!.limit}`);
  // Inngest reads 0 as "no limit".
  return option!.limit === 0 ? null : option!.limit;
}
