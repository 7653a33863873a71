/**
 * The first JSON value in a model's answer: models wrap JSON in prose or ``` fences however they are asked,
 * so the text is searched for the outermost array or object. Null when there is none that parses.
 */
export function jsonIn(text: string): unknown {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(text);
  const candidates = [fenced?.[1], text].filter((t): t is string => typeof t === "string");
  for (const candidate of candidates) {
    for (const [open, close] of [
      ["[", "]"],
      ["{", "}"],
    ] as const) {
      const start = candidate.indexOf(open);
      const end = candidate.lastIndexOf(close);
      if (start === -1 || end <= start) continue;
      try {
        return JSON.parse(candidate.slice(start, end + 1));
      } catch {
        /* try the next shape */
      }
    }
  }
  return null;
}
