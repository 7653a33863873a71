import path from "node:path";
import { currentOwner } from "@adloom/pglite-driver/lock";
import type { Config } from "@/lib/config";
import { AppError } from "@/lib/errors";

/**
 * Where an operator command runs, decided without loading the app: the CLI's first stage (scripts/admin-handoff.ts)
 * hands a command for the running server over from here, so that costs the CLI a tenth of a CPU-second, not half of one.
 */

/** Commands that must run in the CLI's own process with the database closed (never handed to a running server). */
export const OFFLINE_COMMANDS = new Set(["backup restore"]);

/** Commands about the running server itself: always handed to it over its socket, on either database. */
export const SERVER_COMMANDS = new Set(["server memory"]);

/** A command is named by its first two words ("workspace create"). */
export function commandName(argv: string[]): string {
  return argv.slice(0, 2).join(" ");
}

/** File flags are paths relative to where the operator typed the command: made absolute before a server runs them. */
export function absolutePaths(argv: string[], cwd: string): string[] {
  return argv.map((arg, i) => (i > 0 && (argv[i - 1] === "--out" || argv[i - 1] === "--from") ? path.resolve(cwd, arg) : arg));
}

/** The command as the operator typed it, file paths made absolute. */
export function operatorArgv(): string[] {
  // `npm run` starts us in the package folder; INIT_CWD is where the operator typed the command.
  const args = process.argv.slice(2).filter((a, i) => !(i === 0 && a === "--"));
  return absolutePaths(args, process.env.INIT_CWD ?? process.cwd());
}

/**
 * "server": handed to the server that owns the data directory (any command while a server holds the embedded
 * database, and the server's own commands on either database). "offline": run here without opening the database
 * first (restores check themselves that no server runs; backups on PostgreSQL only explain pg_dump). "here": run in
 * this process on the database, migrated first.
 */
export function whereToRun(argv: string[], config: Config): "server" | "offline" | "here" {
  const name = commandName(argv);
  if (OFFLINE_COMMANDS.has(name) || (name.startsWith("backup ") && config.database.kind === "postgres")) return "offline";
  if (SERVER_COMMANDS.has(name)) return "server";
  const owner = config.database.kind === "pglite" ? currentOwner(config.database.dir) : null;
  return owner !== null && owner !== process.pid ? "server" : "here";
}

/** The JSON the CLI prints for a failure: AppErrors as they are, anything else as internal_error. */
export function adminErrorBody(err: unknown): { error: { code: string; message: string } } {
  if (err instanceof AppError) return err.toBody();
  return { error: { code: "internal_error", message: err instanceof Error ? err.message : String(err) } };
}

/** Prints the CLI's one JSON answer and ends the process: 0 on success, 1 otherwise. */
export function printAnswer(body: object, ok: boolean): never {
  process.stdout.write(JSON.stringify(body) + "\n");
  process.exit(ok ? 0 : 1);
}
