import fs from "node:fs";
import { Adloom, AdloomError, type Platform, type Tool } from "@adloom/sdk";
import { UsageError, booleanFlag, stringFlag, type ParsedArgs } from "./args.js";
import { configFile, readConfig, resolveConnection, writeConfig } from "./config.js";
import { EXIT } from "./exit-codes.js";
import { exportLeads } from "./leads-export.js";
import { listen } from "./listen.js";
import { printJson, printRecord, printTable } from "./output.js";
import { uploadProgress } from "./progress.js";
import { resumableUploads } from "./resumable.js";

type Json = Record<string, unknown>;

export interface Context {
  args: ParsedArgs;
  json: boolean;
  client(): Adloom;
}

/** A positional word of a command: fills the tool argument of the same name (or `argument`). */
export interface Positional {
  name: string;
  argument?: string;
  /** Takes every remaining word (an array argument). */
  rest?: boolean;
  /** How the word becomes the argument's value (default: as is). */
  parse?: (words: string[]) => unknown;
}

/** A flag of the command itself (tool-backed commands also take every tool argument as a flag). */
export interface OwnFlag {
  type: "string" | "boolean";
  placeholder?: string;
  description: string;
}

/**
 * One row of the command table. A command that names a `tool` calls it: its positionals and
 * the tool's schema (every other argument a flag) make the arguments; `list`, `record` or
 * `human` say what to print. Commands that are not one tool call have their own `run`.
 */
export interface CommandSpec {
  name: string;
  summary: string;
  tool?: string;
  positionals?: Positional[];
  flags?: Record<string, OwnFlag>;
  /** A paginated list: the result's array key and the table's columns; takes --all. */
  list?: { key: string; columns: string[]; row?: (item: Json) => Json };
  /** One object of the result, printed as `key  value` lines. */
  record?: { key: string; row?: (item: Json) => Json; empty?: string };
  /** A one-line summary of the result for people (default: the result as JSON). */
  human?: (result: Json, words: string[]) => string;
  run?: (ctx: Context) => Promise<number>;
}

const UPLOAD_COLUMNS = ["id", "fileName", "kind", "status", "platform", "platformId", "creativeId", "error", "createdAt"];
type UploadLike = { platform_a?: { imageHash?: string | null; videoId?: string | null }; platform_b?: { imageId?: string | null; videoId?: string | null } };
const platformId = (u: UploadLike) => u.platform_a?.imageHash ?? u.platform_a?.videoId ?? u.platform_b?.imageId ?? u.platform_b?.videoId ?? null;
const uploadRow = (u: Json) => ({ ...u, platformId: platformId(u as UploadLike) });
const field = (result: Json, key: string) => (result[key] ?? {}) as Json;

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) process.stderr.write("API key: ");
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) {
    chunks.push(chunk as Buffer);
    if (process.stdin.isTTY && chunk.toString().includes("\n")) break;
  }
  return Buffer.concat(chunks).toString("utf8").trim();
}

export const COMMANDS: CommandSpec[] = [
  {
    name: "login",
    summary: "Check a key and save it (reads the key from stdin when not given)",
    async run(ctx) {
      const apiKey = stringFlag(ctx.args, "api-key") || process.env.ADLOOM_API_KEY || (await readStdin());
      if (!apiKey) throw new UsageError("No API key given: pass --api-key, set ADLOOM_API_KEY or type it on stdin");
      const baseUrl = resolveConnection({ baseUrl: stringFlag(ctx.args, "base-url") }).baseUrl;
      const account = await new Adloom({ apiKey, baseUrl, maxRetries: 1 }).account.get();
      const file = writeConfig({ ...readConfig(), apiKey, baseUrl });
      if (ctx.json) printJson({ ok: true, account, configFile: file });
      else process.stdout.write(`Logged in as ${account.name} <${account.email}> on ${baseUrl}; key saved in ${file}\n`);
      return EXIT.ok;
    },
  },
  {
    name: "logout",
    summary: "Forget the saved key",
    async run(ctx) {
      const { apiKey: _forgotten, ...rest } = readConfig();
      writeConfig(rest);
      if (ctx.json) printJson({ ok: true });
      else process.stdout.write(`Key removed from ${configFile()}\n`);
      return EXIT.ok;
    },
  },
  { name: "me", summary: "The account behind the key", tool: "get_account", record: { key: "account" } },

  {
    name: "uploads push",
    summary: "Upload files (streamed, with progress; files over 20 MB resumably, resumed when run again); --wait polls until each is completed or failed",
    positionals: [{ name: "files", rest: true }],
    flags: {
      platform: { type: "string", placeholder: "platform_a|platform_b", description: "Ad platform to push to" },
      folder: { type: "string", placeholder: "ID", description: "Library folder for the creatives" },
      "version-of": {
        type: "string",
        placeholder: "CREATIVE_ID",
        description: "Send one file as that creative's next version (no push, no new creative); with --wait, the creativeId column names it",
      },
      wait: { type: "boolean", description: "Wait for the results; exit 4 when one failed" },
      resumable: { type: "boolean", description: "Send every file resumably (tus), not only those over 20 MB" },
    },
    async run(ctx) {
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
      const platform = stringFlag(ctx.args, "platform");
      if (platform && platform !== "platform_a" && platform !== "platform_b") throw new UsageError("--platform must be platform_a or platform_b");
      const versionOf = stringFlag(ctx.args, "version-of");
      if (versionOf !== undefined && files.length !== 1) throw new UsageError("--version-of takes exactly one file (the creative's next version)");
      if (versionOf !== undefined && stringFlag(ctx.args, "folder") !== undefined)
        throw new UsageError("--version-of cannot be combined with --folder: a new version stays in its creative's folder");
      const client = ctx.client();
      const progress = uploadProgress(
        files.map((f) => f.split(/[\\/]/).pop()!),
        sizes,
      );
      const created = await client.uploads.upload(files, {
        platform: platform as Platform | undefined,
        folderId: stringFlag(ctx.args, "folder"),
        versionOf,
        onProgress: progress.onProgress,
        ...resumableUploads(),
        ...(booleanFlag(ctx.args, "resumable") ? { resumableAboveBytes: 0 } : {}),
      });
      progress.done();
      if (!booleanFlag(ctx.args, "wait")) {
        if (ctx.json) printJson({ uploads: created });
        else printTable(created, ["id", "status"]);
        return EXIT.ok;
      }
      const finished = await Promise.all(created.map((u) => client.uploads.waitFor(u.id)));
      if (ctx.json) printJson({ uploads: finished });
      else
        printTable(
          finished.map((u) => uploadRow(u as unknown as Json)),
          UPLOAD_COLUMNS,
        );
      return finished.some((u) => u.status === "failed") ? EXIT.uploadFailed : EXIT.ok;
    },
  },
  { name: "uploads list", summary: "Uploads, newest first", tool: "list_uploads", list: { key: "uploads", columns: UPLOAD_COLUMNS, row: uploadRow } },
  { name: "uploads get", summary: "One upload", tool: "get_upload", positionals: [{ name: "id" }], record: { key: "upload", row: uploadRow } },
  {
    name: "uploads retry",
    summary: "Run a failed upload's job again",
    tool: "retry_upload",
    positionals: [{ name: "id" }],
    human: (r) => `${String(field(r, "upload").id)} ${String(field(r, "upload").status)}`,
  },
  {
    name: "uploads dismiss",
    summary: "Remove a finished upload from the list",
    tool: "dismiss_upload",
    positionals: [{ name: "id" }],
    human: (_r, w) => `dismissed ${w[0]}`,
  },

  {
    name: "creatives list",
    summary: "The library, newest first",
    tool: "list_creatives",
    list: { key: "creatives", columns: ["id", "fileName", "kind", "status", "width", "height", "copyCount", "createdAt"] },
  },
  {
    name: "creatives delete",
    summary: "Delete creatives (unknown ids are skipped)",
    tool: "delete_creatives",
    positionals: [{ name: "ids", rest: true }],
    human: (r, w) => `deleted ${String(r.deleted)} of ${w.length}`,
  },

  {
    name: "copy list",
    summary: "A creative's copy variants",
    tool: "list_copy_variants",
    positionals: [{ name: "creativeId" }],
    list: { key: "copies", columns: ["id", "headline", "primaryText", "description", "label", "createdAt"] },
  },
  { name: "copy add", summary: "Add a copy variant", tool: "create_copy_variant", positionals: [{ name: "creativeId" }], human: (r) => String(r.id) },
  {
    name: "copy update",
    summary: "Change a variant (left-out fields stay; null clears)",
    tool: "update_copy_variant",
    positionals: [{ name: "creativeId" }, { name: "copyId", argument: "id" }],
    human: (r) => String(r.id),
  },
  {
    name: "copy remove",
    summary: "Delete a copy variant",
    tool: "delete_copy_variant",
    positionals: [{ name: "creativeId" }, { name: "copyId", argument: "id" }],
    human: (_r, w) => `removed ${w[1]}`,
  },

  {
    name: "webhooks get",
    summary: "The endpoint, its secret, subscribed events and health",
    tool: "get_webhook",
    record: { key: "webhook", empty: "No webhook endpoint; set one with: adloom webhooks set <https-url>" },
  },
  {
    name: "webhooks set",
    summary: "Create the endpoint or change its URL",
    tool: "set_webhook_url",
    positionals: [{ name: "url" }],
    record: { key: "webhook" },
  },
  {
    name: "webhooks events",
    summary: "Subscribe to these event kinds (comma-separated, or all)",
    tool: "set_webhook_events",
    positionals: [
      {
        name: "events",
        parse: ([spec]) =>
          spec === "all"
            ? null
            : spec!
                .split(",")
                .map((s) => s.trim())
                .filter(Boolean),
      },
    ],
    record: { key: "webhook" },
  },
  { name: "webhooks delete", summary: "Remove the endpoint", tool: "delete_webhook", human: () => "webhook endpoint deleted" },
  { name: "webhooks test", summary: "Send a signed test event", tool: "test_webhook", human: (r) => `sent test event ${String(field(r, "event").id)}` },
  {
    name: "webhooks deliveries",
    summary: "The delivery log (7 days)",
    tool: "list_webhook_deliveries",
    list: {
      key: "deliveries",
      columns: ["id", "eventType", "eventId", "trigger", "outcome", "status", "createdAt"],
      row: (d) => ({ ...d, status: (d.response as { status?: number } | undefined)?.status ?? null }),
    },
  },
  {
    name: "webhooks redeliver",
    summary: "Re-send a logged delivery (same event id and payload)",
    tool: "redeliver_webhook_delivery",
    positionals: [{ name: "deliveryId", argument: "id" }],
    human: (r) => `${String(field(r, "delivery").id)} ${String(field(r, "delivery").outcome ?? "")}`,
  },
  {
    name: "webhooks listen",
    summary: "Receive the workspace's events live and forward each, signed with a secret made for this session, to a local URL (Ctrl-C ends)",
    flags: {
      "forward-to": { type: "string", placeholder: "URL", description: "Where to POST each event" },
      events: { type: "string", placeholder: "KIND[,KIND...]", description: "Only these event kinds" },
    },
    run: listen,
  },

  {
    name: "leads export",
    summary: "Download lead-ad submissions as CSV, streamed (to --out FILE or stdout)",
    flags: {
      form: { type: "string", placeholder: "ID", description: "Only this lead form (list_lead_forms id)" },
      "submitted-after": { type: "string", placeholder: "TIME", description: "Submitted at or after this ISO 8601 time" },
      "submitted-before": { type: "string", placeholder: "TIME", description: "Submitted at or before this ISO 8601 time" },
      out: { type: "string", placeholder: "FILE", description: "Write the CSV here instead of stdout" },
    },
    run: exportLeads,
  },

  {
    name: "tools list",
    summary: "The tool catalog",
    flags: { category: { type: "string", placeholder: "C", description: "Only this category" } },
    async run(ctx) {
      const category = stringFlag(ctx.args, "category");
      const tools = (await ctx.client().tools.list()).filter((t) => !category || t.category === category);
      if (ctx.json) printJson({ tools });
      else
        printTable(
          tools.map((t) => ({ ...t, access: t.readOnly ? "read" : t.destructive ? "destructive" : "write" })),
          ["name", "category", "access", "description"],
        );
      return EXIT.ok;
    },
  },
  {
    name: "tools describe",
    summary: "One tool's schema",
    positionals: [{ name: "name" }],
    async run(ctx) {
      printJson(await liveTool(ctx, ctx.args.positionals[2]!));
      return EXIT.ok;
    },
  },
  {
    name: "tools call",
    summary: "Call any tool: a JSON object (or - for stdin) and/or one flag per argument",
    positionals: [{ name: "name" }, { name: "JSON arguments" }],
    // Runs in main.ts: its flags come from the named tool's schema.
  },
];

/** A tool from the live catalog (it may be newer than this CLI). */
export async function liveTool(ctx: Context, name: string): Promise<Tool> {
  const tool = (await ctx.client().tools.list()).find((t) => t.name === name);
  if (!tool) throw new AdloomError({ code: "not_found", status: 404, message: `Unknown tool "${name}"; adloom tools list shows them` });
  return tool;
}

/** `--all`: every page of a list tool, following nextCursor. */
export async function allPages(client: Adloom, tool: string, args: Json, key: string): Promise<Json[]> {
  const items: Json[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.tools.call(tool, cursor ? { ...args, cursor } : args);
    items.push(...((page[key] ?? []) as Json[]));
    cursor = typeof page.nextCursor === "string" ? page.nextCursor : undefined;
  } while (cursor);
  return items;
}

/** Prints a tool-backed command's result the way its table row says. */
export function printResult(spec: CommandSpec, result: Json, words: string[], json: boolean): void {
  if (json) return printJson(result);
  if (spec.list) {
    const items = (result[spec.list.key] ?? []) as Json[];
    printTable(items.map(spec.list.row ?? ((i) => i)), spec.list.columns);
    if (typeof result.nextCursor === "string") process.stdout.write(`more: --cursor ${result.nextCursor} (or --all)\n`);
  } else if (spec.record) {
    const value = result[spec.record.key] as Json | null | undefined;
    if (!value) process.stdout.write(`${spec.record.empty ?? "(none)"}\n`);
    else printRecord((spec.record.row ?? ((i) => i))(value));
  } else if (spec.human) process.stdout.write(`${spec.human(result, words)}\n`);
  else printJson(result);
}

export function readJsonArgument(inline: string): Json {
  let args: unknown;
  try {
    args = JSON.parse(inline === "-" ? fs.readFileSync(0, "utf8") : inline);
  } catch {
    throw new UsageError("The arguments must be a JSON object (or - to read it from stdin)");
  }
  if (!args || typeof args !== "object" || Array.isArray(args)) throw new UsageError("The arguments must be a JSON object");
  return args as Json;
}
