import type { FlowCondition } from "./flow-schema";

/** What a flow's condition and templates read: the triggering event's envelope, or a schedule's tick. */
export interface FlowTrigger {
  id: string;
  type: string;
  createdAt: string;
  data: Record<string, unknown>;
}

/** The value at a dotted path (array items by index); undefined when absent. */
export function valueAt(root: unknown, path: string): unknown {
  let cur: unknown = root;
  for (const part of path.split(".")) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

export function conditionHolds(condition: FlowCondition | null, trigger: FlowTrigger): boolean {
  if (!condition) return true;
  const actual = valueAt(trigger, condition.path);
  const expected = condition.value;
  switch (condition.operator) {
    case "exists":
      return actual !== undefined && actual !== null;
    case "eq":
      return actual === expected;
    case "neq":
      return actual !== expected;
    case "contains":
      if (typeof actual === "string") return actual.includes(String(expected));
      return Array.isArray(actual) && actual.some((v) => v === expected);
    default: {
      if (typeof actual !== "number" || typeof expected !== "number") return false;
      return { gt: actual > expected, gte: actual >= expected, lt: actual < expected, lte: actual <= expected }[condition.operator];
    }
  }
}

const ONLY_TEMPLATE = /^\{\{\s*([A-Za-z0-9_.]+)\s*\}\}$/;
const TEMPLATE = /\{\{\s*([A-Za-z0-9_.]+)\s*\}\}/g;

/**
 * The payload with its templates filled: a string that is only `{{path}}` becomes the field's
 * JSON value (null when absent); templates inside longer strings are replaced by the field as text.
 */
export function renderPayload(value: unknown, trigger: FlowTrigger): unknown {
  if (typeof value === "string") {
    const whole = ONLY_TEMPLATE.exec(value);
    if (whole) return valueAt(trigger, whole[1]!) ?? null;
    return value.replace(TEMPLATE, (_, path: string) => {
      const v = valueAt(trigger, path);
      return v === undefined || v === null ? "" : typeof v === "object" ? JSON.stringify(v) : String(v);
    });
  }
  if (Array.isArray(value)) return value.map((v) => renderPayload(v, trigger));
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, renderPayload(v, trigger)]));
  return value;
}
