import { parseArgs } from "node:util";

/** A bad command line (exit code 2). */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/** Flags every command takes. */
export const GLOBAL_OPTIONS = {
  json: { type: "boolean" },
  "api-key": { type: "string" },
  "base-url": { type: "string" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean" },
} as const;

export type OptionSpec = { type: "string" | "boolean"; multiple?: boolean; short?: string };

export interface ParsedArgs {
  positionals: string[];
  values: Record<string, string | boolean | (string | boolean)[] | undefined>;
}

/** First pass, before the command is known: its words (the leading positionals). */
export function commandWords(argv: string[]): string[] {
  return parseArgs({ args: argv, options: GLOBAL_OPTIONS, strict: false, allowPositionals: true }).positionals;
}

/** Second pass, with the command's own flags: unknown flags and missing values are usage errors. */
export function parseCommandLine(argv: string[], options: Record<string, OptionSpec>, describeKnown: () => string): ParsedArgs {
  try {
    const { values, positionals } = parseArgs({ args: argv, options: { ...GLOBAL_OPTIONS, ...options }, strict: true, allowPositionals: true });
    return { values: values as ParsedArgs["values"], positionals };
  } catch (err) {
    const e = err as Error & { code?: string };
    if (e.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") {
      const flag = /'([^']+)'/.exec(e.message)?.[1] ?? "";
      throw new UsageError(`Unknown flag ${flag}; this command takes ${describeKnown()}`);
    }
    if (e.code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") throw new UsageError(e.message.split(/\.\s/)[0]!.replace(/'/g, ""));
    throw err;
  }
}

export function stringFlag(args: ParsedArgs, name: string): string | undefined {
  const value = args.values[name];
  const last = Array.isArray(value) ? value[value.length - 1] : value;
  return typeof last === "string" ? last : undefined;
}

export function booleanFlag(args: ParsedArgs, name: string): boolean {
  return args.values[name] === true;
}

/** The global flags alone (for work done before the command's own flags are known). */
export function globalArgs(argv: string[]): ParsedArgs {
  const { values, positionals } = parseArgs({ args: argv, options: GLOBAL_OPTIONS, strict: false, allowPositionals: true });
  return { values: values as ParsedArgs["values"], positionals };
}
