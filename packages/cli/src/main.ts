import { Adloom, AdloomError, type JsonSchema } from "@adloom/sdk";
import { TOOL_CATALOG } from "@adloom/sdk/catalog";
import { booleanFlag, commandWords, globalArgs, type OptionSpec, type ParsedArgs, parseCommandLine, stringFlag, UsageError } from "./args.js";
import { allPages, COMMANDS, type CommandSpec, type Context, liveTool, printResult, readJsonArgument } from "./commands.js";
import { resolveConnection } from "./config.js";
import { describeFailure, EXIT } from "./exit-codes.js";
import { helpText } from "./help.js";
import { argumentsFromFlags, parseArgsOptions, toolFlags, type ToolFlag } from "./tool-flags.js";

export const VERSION = "1.0.0";

function findCommand(words: string[]): CommandSpec | undefined {
  return COMMANDS.find((c) => c.name === words.slice(0, 2).join(" ")) ?? COMMANDS.find((c) => !c.name.includes(" ") && c.name === words[0]);
}

function ownOptions(spec: CommandSpec): Record<string, OptionSpec> {
  const options: Record<string, OptionSpec> = Object.fromEntries(Object.entries(spec.flags ?? {}).map(([name, f]) => [name, { type: f.type }]));
  if (spec.list) options.all = { type: "boolean" };
  return options;
}

const describeFlags = (flags: ToolFlag[], own: Record<string, OptionSpec>) =>
  [...Object.keys(own).map((f) => `--${f}`), ...flags.map((f) => `--${f.flag}`)].join(", ") || "no flags";

/** A command backed by one tool: positionals and flags (from the tool's schema) become its arguments. */
async function runToolCommand(spec: CommandSpec & { tool: string }, argv: string[], words: number, contextFor: (args: ParsedArgs) => Context): Promise<number> {
  const schema = TOOL_CATALOG.find((t) => t.name === spec.tool)?.inputSchema ?? { properties: {} };
  const positionals = spec.positionals ?? [];
  const flags = toolFlags(
    schema,
    positionals.map((p) => p.argument ?? p.name),
  );
  const own = ownOptions(spec);
  const args = parseCommandLine(argv, { ...parseArgsOptions(flags), ...own }, () => describeFlags(flags, own));
  const given = args.positionals.slice(words);
  const toolArgs: Record<string, unknown> = {};
  for (const [i, p] of positionals.entries()) {
    const value = p.rest ? given.slice(i) : given.slice(i, i + 1);
    if (!value.length) throw new UsageError(`Missing ${p.name}: adloom ${spec.name} ${positionals.map((q) => `<${q.name}>`).join(" ")}`);
    toolArgs[p.argument ?? p.name] = p.parse ? p.parse(value) : p.rest ? value : value[0];
  }
  if (given.length > positionals.length && !positionals.some((p) => p.rest)) throw new UsageError(`Unexpected argument "${given[positionals.length]}"`);
  Object.assign(toolArgs, argumentsFromFlags(flags, args.values as Record<string, string[] | undefined>));
  const context = contextFor(args);
  const client = context.client();
  if (spec.list && booleanFlag(args, "all")) {
    const items = await allPages(client, spec.tool, toolArgs, spec.list.key);
    printResult(spec, { [spec.list.key]: items, nextCursor: null }, given, context.json);
    return EXIT.ok;
  }
  printResult(spec, await client.tools.call(spec.tool, toolArgs), given, context.json);
  return EXIT.ok;
}

/** `tools call <name> [JSON] [--arg value ...]`: the flags come from that tool's schema (this CLI's catalog, else the live one). */
async function runToolsCall(argv: string[], contextFor: (args: ParsedArgs) => Context): Promise<number> {
  const name = commandWords(argv)[2];
  if (!name) throw new UsageError("Missing tool name: adloom tools call <name> [JSON arguments] [--<argument> value ...]");
  const wantsFlags = argv.some((a, i) => i > 2 && a.startsWith("--") && !["--json", "--api-key", "--base-url", "--help"].includes(a.split("=")[0]!));
  let schema: JsonSchema | undefined = TOOL_CATALOG.find((t) => t.name === name)?.inputSchema;
  if (!schema && wantsFlags) schema = (await liveTool(contextFor(globalArgs(argv)), name)).inputSchema;
  const flags = toolFlags(schema ?? { properties: {} });
  const args = parseCommandLine(argv, parseArgsOptions(flags), () => describeFlags(flags, {}));
  const inline = args.positionals[3];
  const toolArgs = {
    ...(inline !== undefined ? readJsonArgument(inline) : {}),
    ...argumentsFromFlags(flags, args.values as Record<string, string[] | undefined>),
  };
  const context = contextFor(args);
  const result = await context.client().tools.call(name, toolArgs);
  printResultJson(result, context.json);
  return EXIT.ok;
}

function printResultJson(result: unknown, json: boolean) {
  process.stdout.write(JSON.stringify(json ? { result } : result, null, 2) + "\n");
}

/** Runs the CLI; returns the exit code. */
export async function main(argv: string[]): Promise<number> {
  let json = argv.includes("--json");
  try {
    const words = commandWords(argv);
    if (argv.includes("--version")) {
      process.stdout.write(`adloom ${VERSION}\n`);
      return EXIT.ok;
    }
    const help = argv.includes("--help") || argv.includes("-h");
    if (!words.length || words[0] === "help" || (help && words.length < 2)) {
      process.stdout.write(helpText(COMMANDS) + "\n");
      return words.length || help ? EXIT.ok : EXIT.usage;
    }
    const spec = findCommand(words);
    if (!spec) throw new UsageError(`Unknown command "${words.slice(0, 2).join(" ")}"`);
    let client: Adloom | undefined;
    const contextFor = (parsed: ParsedArgs): Context => ({
      args: parsed,
      json: booleanFlag(parsed, "json"),
      client() {
        if (client) return client;
        const { apiKey, baseUrl } = resolveConnection({ apiKey: stringFlag(parsed, "api-key"), baseUrl: stringFlag(parsed, "base-url") });
        if (!apiKey) {
          throw new AdloomError({ code: "unauthorized", status: 0, message: "No API key: run adloom login, set ADLOOM_API_KEY or pass --api-key" });
        }
        return (client = new Adloom({ apiKey, baseUrl, headers: { "User-Agent": `adloom-cli/${VERSION}` } }));
      },
    });
    const wordCount = spec.name.split(" ").length;
    if (spec.name === "tools call") return await runToolsCall(argv, contextFor);
    if (spec.tool && !spec.run) {
      const tool = spec.tool;
      return await runToolCommand({ ...spec, tool }, argv, wordCount, contextFor);
    }
    const own = ownOptions(spec);
    const args = parseCommandLine(argv, own, () => describeFlags([], own));
    json = booleanFlag(args, "json");
    const required = (spec.positionals ?? []).filter((p) => !p.rest);
    if (args.positionals.length < wordCount + required.length)
      throw new UsageError(`Missing ${required[args.positionals.length - wordCount]?.name ?? "argument"}`);
    return await spec.run!(contextFor(args));
  } catch (err) {
    const { code, line } = describeFailure(err);
    if (json && err instanceof AdloomError) process.stdout.write(JSON.stringify({ error: { code: err.rawCode ?? err.code, message: err.message } }) + "\n");
    process.stderr.write(line + "\n");
    return code;
  }
}
