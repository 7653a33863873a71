/**
 * The small subset of Inngest's (CEL) expressions the embedded runner evaluates:
 * comparisons `a == b` / `a != b` joined by `&&`, where each side is a path on
 * `event` or `async` (e.g. `event.data.id`) or a string, number, boolean or null literal.
 * That covers `onFailure` handlers and `waitForEvent({ match })`. Anything else is
 * rejected when parsed, so an unsupported expression fails loudly instead of matching wrongly.
 */
type Operand = { kind: "path"; root: "event" | "async"; path: string[] } | { kind: "literal"; value: unknown };
interface Comparison {
  left: Operand;
  op: "==" | "!=";
  right: Operand;
}
export type Expression = Comparison[];

function parseOperand(raw: string, source: string): Operand {
  const s = raw.trim();
  const quoted = /^'((?:[^'\\]|\\.)*)'$|^"((?:[^"\\]|\\.)*)"$/.exec(s);
  if (quoted) return { kind: "literal", value: (quoted[1] ?? quoted[2])!.replace(/\\(.)/g, "$1") };
  if (/^-?\d+(\.\d+)?$/.test(s)) return { kind: "literal", value: Number(s) };
  if (s === "true" || s === "false") return { kind: "literal", value: s === "true" };
  if (s === "null") return { kind: "literal", value: null };
  const path = /^(event|async)((?:\.[A-Za-z_$][\w$]*)+)$/.exec(s);
  if (path) return { kind: "path", root: path[1] as "event" | "async", path: path[2]!.slice(1).split(".") };
  throw new Error(`Unsupported expression "${source}" (the embedded runner supports ==, != and && over event/async fields)`);
}

/** Parses an expression; throws for anything outside the supported subset. */
export function parseExpression(source: string): Expression {
  return source.split("&&").map((clause) => {
    const m = /^(.*?)(==|!=)(.*)$/.exec(clause);
    if (!m) throw new Error(`Unsupported expression "${source}"`);
    return { left: parseOperand(m[1]!, source), op: m[2] as "==" | "!=", right: parseOperand(m[3]!, source) };
  });
}

function resolve(operand: Operand, scope: { event: unknown; async?: unknown }): unknown {
  if (operand.kind === "literal") return operand.value;
  let value: unknown = scope[operand.root];
  for (const key of operand.path) value = value !== null && typeof value === "object" ? (value as Record<string, unknown>)[key] : undefined;
  return value;
}

/** Evaluates a parsed expression against the triggering event (and the awaited event as `async`). */
export function evaluate(expr: Expression, scope: { event: unknown; async?: unknown }): boolean {
  return expr.every(({ left, op, right }) => {
    const a = resolve(left, scope);
    const b = resolve(right, scope);
    const equal = a === b || (a !== undefined && b !== undefined && JSON.stringify(a) === JSON.stringify(b));
    return op === "==" ? equal : !equal;
  });
}
