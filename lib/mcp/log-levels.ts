import type { LoggingLevel } from "@modelcontextprotocol/sdk/types.js";
import type { Principal } from "@/lib/auth/principal";
import { defineService } from "@/lib/services";

/**
 * The MCP log level each credential asked for (logging/setLevel). The endpoint is stateless, so
 * the level cannot live in a session: it is kept per API key or OAuth connection in this process
 * (bounded; the oldest entries go first) and applies to that credential's later tools/call answers.
 * Without a setLevel, tool calls log at `warning` and above. Another instance does not know it.
 */
const LEVELS: LoggingLevel[] = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];
const DEFAULT_LEVEL: LoggingLevel = "warning";
const MAX_ENTRIES = 10_000;

const levels = defineService("mcp.log-levels", () => new Map<string, LoggingLevel>());

const keyOf = (principal: Principal) => `${principal.keyId ?? `user:${principal.userId}`}@${principal.workspaceId}`;

export function setLogLevel(principal: Principal, level: LoggingLevel): void {
  const map = levels();
  const key = keyOf(principal);
  map.delete(key);
  map.set(key, level);
  if (map.size > MAX_ENTRIES) map.delete(map.keys().next().value!);
}

export function logLevelOf(principal: Principal): LoggingLevel {
  return levels().get(keyOf(principal)) ?? DEFAULT_LEVEL;
}

/** Whether a message at `level` passes the threshold. */
export function isLogged(level: LoggingLevel, threshold: LoggingLevel): boolean {
  return LEVELS.indexOf(level) >= LEVELS.indexOf(threshold);
}
