/** Parsed command line: positionals in order, flags by name (repeated flags collect into arrays). */
export interface ParsedArgs {
  positionals: string[];
  flags: Map<string, string[]>;
}

/** Flags that never take a value. */
const BOOLEAN_FLAGS = new Set(["json", "wait", "all", "help", "version", "yes"]);

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/** `--name value`, `--name=value`, boolean `--flag`, `--` ends flags. */
export function parseArgs(argv: string[]): ParsedArgs {
  const positionals: string[] = [];
  const flags = new Map<string, string[]>();
  const add = (name: string, value: string) => flags.set(name, [...(flags.get(name) ?? []), value]);
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (arg === "-h") {
      add("help", "true");
      continue;
    }
    if (!arg.startsWith("--") || arg === "--") {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    const name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
    if (eq !== -1) add(name, arg.slice(eq + 1));
    else if (BOOLEAN_FLAGS.has(name)) add(name, "true");
    else if (i + 1 < argv.length) add(name, argv[++i]!);
    else throw new UsageError(`--${name} needs a value`);
  }
  return { positionals, flags };
}

export function flag(args: ParsedArgs, name: string): string | undefined {
  const values = args.flags.get(name);
  return values?.[values.length - 1];
}

export function hasFlag(args: ParsedArgs, name: string): boolean {
  const value = flag(args, name);
  return value !== undefined && value !== "false" && value !== "0";
}

/** A positive integer flag, or undefined. */
export function intFlag(args: ParsedArgs, name: string): number | undefined {
  const value = flag(args, name);
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`--${name} must be a positive integer, got "${value}"`);
  return n;
}
