import { evaluate, parseExpression } from "./expression";
import type { FunctionDef } from "./registry";
import type { CandidateWait } from "./store";
import type { JobEventPayload } from "./types";

function nameMatches(pattern: string, name: string): boolean {
  // Inngest allows a trailing wildcard, e.g. "app/upload.*".
  return pattern.endsWith("*") ? name.startsWith(pattern.slice(0, -1)) : pattern === name;
}

/** The functions an event triggers. */
export function functionsForEvent(registry: readonly FunctionDef[], event: JobEventPayload): FunctionDef[] {
  return registry.filter((fn) => fn.events.some((t) => nameMatches(t.name, event.name) && (!t.expression || evaluate(t.expression, { event }))));
}

/** Whether any function listens for events named `name`. */
export function hasListener(registry: readonly FunctionDef[], name: string): boolean {
  return registry.some((fn) => fn.events.some((t) => nameMatches(t.name, name)));
}

/** Whether `event` satisfies a pending step.waitForEvent (its `if` expression, when it has one; the name is the caller's check). */
export function matchesWait(wait: CandidateWait, event: JobEventPayload): boolean {
  return !wait.expression || evaluate(parseExpression(wait.expression), { event: wait.runEvent, async: event });
}
