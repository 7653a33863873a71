import { currentRequestId } from "@/lib/observability/request-context";

/**
 * Structured logs: one JSON object per line on stdout (stderr for warn and error), with the time,
 * level, message, the request id of the request being served (when there is one) and any fields.
 * LOG_LEVEL filters (debug < info < warn < error; silent prints nothing).
 */
type Level = "debug" | "info" | "warn" | "error";
const ORDER: Record<Level | "silent", number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

function threshold(): number {
  // Read straight from the environment: the logger must work before (and without) a valid configuration.
  const level = process.env.LOG_LEVEL as Level | "silent" | undefined;
  return ORDER[level && level in ORDER ? level : "info"];
}

function serializeError(err: unknown): unknown {
  if (!(err instanceof Error)) return err;
  return { name: err.name, message: err.message, stack: err.stack };
}

function write(level: Level, message: string, fields?: Record<string, unknown>): void {
  if (ORDER[level] < threshold()) return;
  const entry: Record<string, unknown> = { time: new Date().toISOString(), level, msg: message };
  const requestId = currentRequestId();
  if (requestId) entry.requestId = requestId;
  for (const [key, value] of Object.entries(fields ?? {})) entry[key] = key === "err" || value instanceof Error ? serializeError(value) : value;
  let line: string;
  try {
    line = JSON.stringify(entry);
  } catch {
    line = JSON.stringify({ time: entry.time, level, msg: message, requestId, note: "fields could not be serialized" });
  }
  (level === "warn" || level === "error" ? process.stderr : process.stdout).write(line + "\n");
}

export const log = {
  debug: (message: string, fields?: Record<string, unknown>) => write("debug", message, fields),
  info: (message: string, fields?: Record<string, unknown>) => write("info", message, fields),
  warn: (message: string, fields?: Record<string, unknown>) => write("warn", message, fields),
  error: (message: string, fields?: Record<string, unknown>) => write("error", message, fields),
};
