/** Prints a value for scripts: one JSON document on stdout. */
export function printJson(value: unknown): void {
  process.stdout.write(JSON.stringify(value, null, 2) + "\n");
}

type Row = Record<string, unknown>;

function cell(value: unknown): string {
  if (value === null || value === undefined) return "-";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/** A plain aligned table of the chosen columns. */
export function printTable(rows: Row[], columns: string[], empty = "(none)"): void {
  if (!rows.length) {
    process.stdout.write(empty + "\n");
    return;
  }
  const cells = rows.map((r) => columns.map((c) => cell(r[c])));
  const widths = columns.map((c, i) => Math.min(60, Math.max(c.length, ...cells.map((row) => row[i]!.length))));
  const line = (values: string[]) =>
    values
      .map((v, i) => (v.length > widths[i]! ? v.slice(0, widths[i]! - 1) + "…" : v.padEnd(widths[i]!)))
      .join("  ")
      .trimEnd();
  process.stdout.write([line(columns.map((c) => c.toUpperCase())), ...cells.map(line)].join("\n") + "\n");
}

/** `key: value` lines for one object (nested objects as compact JSON). */
export function printRecord(record: Row): void {
  const width = Math.max(...Object.keys(record).map((k) => k.length));
  for (const [k, v] of Object.entries(record)) process.stdout.write(`${k.padEnd(width)}  ${cell(v)}\n`);
}
