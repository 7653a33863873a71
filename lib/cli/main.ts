import fs from "node:fs";
import { Adloom } from "../sdk/client";
import { AdloomError } from "../sdk/errors";
import type { Tool, Upload } from "../sdk/types";
import { flag, hasFlag, intFlag, parseArgs, type ParsedArgs, UsageError } from "./args";
import { configFile, readConfig, resolveConnection, writeConfig } from "./config";
import { describeFailure, EXIT } from "./exit-codes";
import { printJson, printRecord, printTable } from "./output";
import { uploadProgress } from "./progress";
import { argumentsFromFlags } from "./tool-flags";

const HELP = `adloom: the Adloom command-line client

Usage: adloom <command> [arguments] [--json] [--api-key KEY] [--base-url URL]

  login [--api-key KEY] [--base-url URL]   Check a key and save it (reads the key from stdin when not given)
  logout                                   Forget the saved key
  me                                       The account behind the key

  uploads push <files...> [--platform platform_a|platform_b] [--folder ID] [--wait]
  uploads list [--limit N] [--cursor C] [--all]
  uploads get <id>
  uploads retry <id>
  uploads dismiss <id>

  creatives list [--limit N] [--cursor C] [--all]
  creatives delete <id...>

  copy list <creativeId> [--all]
  copy add <creativeId> [--headline T] [--primary-text T] [--description T] [--label T]
  copy update <creativeId> <copyId> [--headline T] ...
  copy remove <creativeId> <copyId>

  webhooks get
  webhooks set <https-url>
  webhooks events <kind,kind,...|all>
  webhooks delete
  webhooks test
  webhooks deliveries [--limit N] [--cursor C] [--all]
  webhooks redeliver <deliveryId>

  tools list [--category C]
  tools describe <name>
  tools call <name> [JSON arguments] [--<argument> value ...]

Every command takes --json (machine-readable output on stdout).
Key and server: --api-key / ADLOOM_API_KEY / saved by login; --base-url / ADLOOM_BASE_URL (default http://localhost:3000).
Exit codes: 0 ok, 1 API error, 2 usage, 3 authentication or permission, 4 upload failed, 5 server unreachable.`;

interface Context {
  args: ParsedArgs;
  json: boolean;
  client(): Adloom;
}

function need(args: ParsedArgs, index: number, what: string): string {
  const value = args.positionals[index];
  if (!value) throw new UsageError(`Missing ${what}`);
  return value;
}

const UPLOAD_COLUMNS = ["id", "fileName", "kind", "status", "platform", "platformId", "error", "createdAt"];
const platformId = (u: Upload) => u.platform_a?.imageHash ?? u.platform_a?.videoId ?? u.platform_b?.imageId ?? u.platform_b?.videoId ?? null;
const uploadRow = (u: Upload) => ({ ...u, platformId: platformId(u) });

async function collect<T>(iterator: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterator) items.push(item);
  return items;
}

/** Lists one page, or every page with --all; prints a table or JSON. */
async function listCommand<T extends object>(
  ctx: Context,
  page: (o: { limit?: number; cursor?: string }) => Promise<{ items: T[]; nextCursor: string | null }>,
  all: (o: { limit?: number }) => AsyncIterable<T>,
  key: string,
  columns: string[],
  row: (item: T) => Record<string, unknown> = (i) => i as Record<string, unknown>,
): Promise<number> {
  const limit = intFlag(ctx.args, "limit");
  const result = hasFlag(ctx.args, "all")
    ? { items: await collect(all({ limit })), nextCursor: null }
    : await page({ limit, cursor: flag(ctx.args, "cursor") });
  if (ctx.json) printJson({ [key]: result.items, nextCursor: result.nextCursor });
  else {
    printTable(result.items.map(row), columns);
    if (result.nextCursor) process.stdout.write(`more: --cursor ${result.nextCursor} (or --all)\n`);
  }
  return EXIT.ok;
}

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) process.stderr.write("API key: ");
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) {
    chunks.push(chunk as Buffer);
    if (process.stdin.isTTY && chunk.toString().includes("\n")) break;
  }
  return Buffer.concat(chunks).toString("utf8").trim();
}

const commands: Record<string, (ctx: Context) => Promise<number>> = {
  async login(ctx) {
    const apiKey = flag(ctx.args, "api-key") || process.env.ADLOOM_API_KEY || (await readStdin());
    if (!apiKey) throw new UsageError("No API key given: pass --api-key, set ADLOOM_API_KEY or type it on stdin");
    const baseUrl = resolveConnection({ baseUrl: flag(ctx.args, "base-url") }).baseUrl;
    const account = await new Adloom({ apiKey, baseUrl, maxRetries: 1 }).account.get();
    const file = writeConfig({ ...readConfig(), apiKey, baseUrl });
    if (ctx.json) printJson({ ok: true, account, configFile: file });
    else process.stdout.write(`Logged in as ${account.name} <${account.email}> on ${baseUrl}; key saved in ${file}\n`);
    return EXIT.ok;
  },

  async logout(ctx) {
    const { apiKey: _forgotten, ...rest } = readConfig();
    writeConfig(rest);
    if (ctx.json) printJson({ ok: true });
    else process.stdout.write(`Key removed from ${configFile()}\n`);
    return EXIT.ok;
  },

  async me(ctx) {
    const account = await ctx.client().account.get();
    if (ctx.json) printJson({ account });
    else printRecord(account as unknown as Record<string, unknown>);
    return EXIT.ok;
  },

  async "uploads push"(ctx) {
    const files = ctx.args.positionals.slice(2);
    if (!files.length) throw new UsageError("uploads push needs at least one file");
    const sizes = files.map((f) => {
      try {
        const stat = fs.statSync(f);
        if (!stat.isFile()) throw new Error();
        return stat.size;
      } catch {
        throw new UsageError(`${f}: no such file`);
      }
    });
    const platform = flag(ctx.args, "platform");
    if (platform && platform !== "platform_a" && platform !== "platform_b") throw new UsageError("--platform must be platform_a or platform_b");
    const client = ctx.client();
    const progress = uploadProgress(files.map((f) => f.split(/[\\/]/).pop()!), sizes);
    const created = await client.uploads.create(files, {
      platform: platform as "platform_a" | "platform_b" | undefined,
      folderId: flag(ctx.args, "folder"),
      onProgress: progress.onProgress,
    });
    progress.done();
    if (!hasFlag(ctx.args, "wait")) {
      if (ctx.json) printJson({ uploads: created });
      else printTable(created, ["id", "status"]);
      return EXIT.ok;
    }
    const finished = await Promise.all(created.map((u) => client.uploads.waitFor(u.id)));
    if (ctx.json) printJson({ uploads: finished });
    else printTable(finished.map(uploadRow), UPLOAD_COLUMNS);
    return finished.some((u) => u.status === "failed") ? EXIT.uploadFailed : EXIT.ok;
  },

  async "uploads list"(ctx) {
    const c = ctx.client();
    return listCommand(ctx, (o) => c.uploads.list(o), (o) => c.uploads.iterate(o), "uploads", UPLOAD_COLUMNS, uploadRow);
  },

  async "uploads get"(ctx) {
    const upload = await ctx.client().uploads.get(need(ctx.args, 2, "upload id"));
    if (ctx.json) printJson({ upload });
    else printRecord(uploadRow(upload));
    return EXIT.ok;
  },

  async "uploads retry"(ctx) {
    const upload = await ctx.client().uploads.retry(need(ctx.args, 2, "upload id"));
    if (ctx.json) printJson({ upload });
    else process.stdout.write(`${upload.id} ${upload.status}\n`);
    return EXIT.ok;
  },

  async "uploads dismiss"(ctx) {
    const id = need(ctx.args, 2, "upload id");
    await ctx.client().uploads.dismiss(id);
    if (ctx.json) printJson({ ok: true });
    else process.stdout.write(`dismissed ${id}\n`);
    return EXIT.ok;
  },

  async "creatives list"(ctx) {
    const c = ctx.client();
    return listCommand(ctx, (o) => c.creatives.list(o), (o) => c.creatives.iterate(o), "creatives", [
      "id",
      "fileName",
      "kind",
      "status",
      "width",
      "height",
      "copyCount",
      "createdAt",
    ]);
  },

  async "creatives delete"(ctx) {
    const ids = ctx.args.positionals.slice(2);
    if (!ids.length) throw new UsageError("creatives delete needs at least one id");
    const deleted = await ctx.client().creatives.delete(ids);
    if (ctx.json) printJson({ deleted });
    else process.stdout.write(`deleted ${deleted} of ${ids.length}\n`);
    return EXIT.ok;
  },

  async "copy list"(ctx) {
    const c = ctx.client();
    const creativeId = need(ctx.args, 2, "creative id");
    return listCommand(ctx, (o) => c.copy.list(creativeId, o), (o) => c.copy.iterate(creativeId, o), "copies", [
      "id",
      "headline",
      "primaryText",
      "description",
      "label",
      "createdAt",
    ]);
  },

  async "copy add"(ctx) {
    const result = await ctx.client().copy.add(need(ctx.args, 2, "creative id"), copyFields(ctx.args));
    if (ctx.json) printJson(result);
    else process.stdout.write(`${result.id}\n`);
    return EXIT.ok;
  },

  async "copy update"(ctx) {
    const result = await ctx.client().copy.update(need(ctx.args, 2, "creative id"), need(ctx.args, 3, "copy id"), copyFields(ctx.args));
    if (ctx.json) printJson(result);
    else process.stdout.write(`${result.id}\n`);
    return EXIT.ok;
  },

  async "copy remove"(ctx) {
    const copyId = need(ctx.args, 3, "copy id");
    await ctx.client().copy.remove(need(ctx.args, 2, "creative id"), copyId);
    if (ctx.json) printJson({ ok: true });
    else process.stdout.write(`removed ${copyId}\n`);
    return EXIT.ok;
  },

  async "webhooks get"(ctx) {
    const webhook = await ctx.client().webhooks.get();
    if (ctx.json) printJson({ webhook });
    else if (!webhook) process.stdout.write("No webhook endpoint; set one with: adloom webhooks set <https-url>\n");
    else printRecord(webhook);
    return EXIT.ok;
  },

  async "webhooks set"(ctx) {
    const webhook = await ctx.client().webhooks.setUrl(need(ctx.args, 2, "endpoint URL"));
    if (ctx.json) printJson({ webhook });
    else printRecord(webhook);
    return EXIT.ok;
  },

  async "webhooks events"(ctx) {
    const spec = need(ctx.args, 2, 'event kinds (comma-separated, or "all")');
    const events = spec === "all" ? null : spec.split(",").map((s) => s.trim()).filter(Boolean);
    const webhook = await ctx.client().webhooks.setEvents(events);
    if (ctx.json) printJson({ webhook });
    else printRecord(webhook);
    return EXIT.ok;
  },

  async "webhooks delete"(ctx) {
    await ctx.client().webhooks.delete();
    if (ctx.json) printJson({ ok: true });
    else process.stdout.write("webhook endpoint deleted\n");
    return EXIT.ok;
  },

  async "webhooks test"(ctx) {
    const result = await ctx.client().webhooks.test();
    if (ctx.json) printJson(result);
    else process.stdout.write(`sent test event ${result.event.id}\n`);
    return EXIT.ok;
  },

  async "webhooks deliveries"(ctx) {
    const c = ctx.client();
    return listCommand(ctx, (o) => c.webhooks.deliveries(o), (o) => c.webhooks.iterateDeliveries(o), "deliveries", [
      "id",
      "eventType",
      "eventId",
      "trigger",
      "outcome",
      "status",
      "createdAt",
    ], (d) => ({ ...d, status: (d.response as { status?: number } | undefined)?.status ?? null }));
  },

  async "webhooks redeliver"(ctx) {
    const delivery = await ctx.client().webhooks.redeliver(need(ctx.args, 2, "delivery id"));
    if (ctx.json) printJson({ delivery });
    else process.stdout.write(`${delivery.id} ${String(delivery.outcome ?? "")}\n`);
    return EXIT.ok;
  },

  async "tools list"(ctx) {
    const category = flag(ctx.args, "category");
    const tools = (await ctx.client().tools.list()).filter((t) => !category || t.category === category);
    if (ctx.json) printJson({ tools });
    else
      printTable(
        tools.map((t) => ({ ...t, access: t.readOnly ? "read" : t.destructive ? "destructive" : "write" })),
        ["name", "category", "access", "description"],
      );
    return EXIT.ok;
  },

  async "tools describe"(ctx) {
    const tool = await findTool(ctx, need(ctx.args, 2, "tool name"));
    printJson(tool);
    return EXIT.ok;
  },

  async "tools call"(ctx) {
    const name = need(ctx.args, 2, "tool name");
    const inline = ctx.args.positionals[3];
    let args: Record<string, unknown> = {};
    if (inline !== undefined) {
      try {
        args = JSON.parse(inline === "-" ? fs.readFileSync(0, "utf8") : inline) as Record<string, unknown>;
      } catch {
        throw new UsageError("The arguments must be a JSON object (or - to read it from stdin)");
      }
      if (!args || typeof args !== "object" || Array.isArray(args)) throw new UsageError("The arguments must be a JSON object");
    }
    const hasToolFlags = [...ctx.args.flags.keys()].some((f) => !["json", "api-key", "base-url"].includes(f));
    if (hasToolFlags) args = { ...args, ...argumentsFromFlags((await findTool(ctx, name)).inputSchema, ctx.args) };
    const result = await ctx.client().tools.call(name, args);
    printJson(ctx.json ? { result } : result);
    return EXIT.ok;
  },
};

async function findTool(ctx: Context, name: string): Promise<Tool> {
  const tool = (await ctx.client().tools.list()).find((t) => t.name === name);
  if (!tool) throw new AdloomError({ code: "not_found", status: 404, message: `Unknown tool "${name}"; adloom tools list shows them` });
  return tool;
}

function copyFields(args: ParsedArgs) {
  const fields: Record<string, string | null> = {};
  for (const [f, key] of [
    ["headline", "headline"],
    ["primary-text", "primaryText"],
    ["description", "description"],
    ["label", "label"],
  ] as const) {
    const value = flag(args, f);
    if (value !== undefined) fields[key] = value;
  }
  return fields;
}

/** Runs the CLI; returns the exit code. */
export async function main(argv: string[]): Promise<number> {
  let json = false;
  try {
    const args = parseArgs(argv);
    json = hasFlag(args, "json");
    const [group, sub] = args.positionals;
    if (hasFlag(args, "version")) {
      process.stdout.write("adloom 1.0.0\n");
      return EXIT.ok;
    }
    if (!group || group === "help" || (hasFlag(args, "help") && !sub)) {
      process.stdout.write(HELP + "\n");
      return group || hasFlag(args, "help") ? EXIT.ok : EXIT.usage;
    }
    // Top-level commands (login, logout, me) take no subcommand; the rest are "<group> <action>".
    const command = commands[group] ?? (sub !== undefined ? commands[`${group} ${sub}`] : undefined);
    if (!command) throw new UsageError(`Unknown command "${[group, sub].filter(Boolean).join(" ")}"`);
    let client: Adloom | undefined;
    const ctx: Context = {
      args,
      json,
      client() {
        if (client) return client;
        const { apiKey, baseUrl } = resolveConnection({ apiKey: flag(args, "api-key"), baseUrl: flag(args, "base-url") });
        if (!apiKey) {
          throw new AdloomError({ code: "unauthorized", status: 0, message: "No API key: run adloom login, set ADLOOM_API_KEY or pass --api-key" });
        }
        return (client = new Adloom({ apiKey, baseUrl, headers: { "User-Agent": "adloom-cli/1.0" } }));
      },
    };
    return await command(ctx);
  } catch (err) {
    const { code, line } = describeFailure(err);
    if (json && err instanceof AdloomError) process.stdout.write(JSON.stringify({ error: { code: err.rawCode ?? err.code, message: err.message } }) + "\n");
    process.stderr.write(line + "\n");
    return code;
  }
}
