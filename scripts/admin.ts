/**
 * Operator CLI: `npm run --silent admin -- <command> [flags]`. Prints exactly one
 * JSON object; exits 0 on success, 1 with {"error":{code,message}} otherwise.
 */
import { absolutePaths, adminErrorBody, OFFLINE_COMMANDS, parseAdminCommand, runAdminCommand, SERVER_COMMANDS } from "@/lib/admin/commands";
import { sendAdminCommand } from "@/lib/admin/socket-client";
import { disposeServices, getConfig } from "@/lib/services";
import { ensureMigrated } from "@/lib/db/migrate-configured";
import { currentOwner } from "@adloom/pglite-driver";

function print(body: object, ok: boolean): never {
  process.stdout.write(JSON.stringify(body) + "\n");
  process.exit(ok ? 0 : 1);
}

async function main(): Promise<void> {
  // `npm run` starts us in the package folder; INIT_CWD is where the operator typed the command.
  const argv = absolutePaths(
    process.argv.slice(2).filter((a, i) => !(i === 0 && a === "--")),
    process.env.INIT_CWD ?? process.cwd(),
  );
  try {
    const config = getConfig();
    const { name } = parseAdminCommand(argv); // reject bad input before touching any database
    // Restores check themselves that no server runs; backups on PostgreSQL only explain pg_dump.
    if (OFFLINE_COMMANDS.has(name) || (name.startsWith("backup ") && config.database.kind === "postgres")) print(await runAdminCommand(argv), true);
    const owner = config.database.kind === "pglite" ? currentOwner(config.database.dir) : null;
    if (SERVER_COMMANDS.has(name) || (owner !== null && owner !== process.pid)) {
      const answer = await sendAdminCommand(config.dataDir, argv).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== "ENOENT" && err.code !== "ECONNREFUSED") throw err;
        return {
          ok: false,
          body: { error: { code: "not_found", message: `No server is running on ${config.dataDir} (its admin socket is missing); start it first` } },
        };
      });
      print(answer.body, answer.ok);
    }
    await ensureMigrated(); // the server may never have run on this database
    const body = await runAdminCommand(argv);
    await disposeServices();
    print(body, true);
  } catch (err) {
    print(adminErrorBody(err), false);
  }
}

void main();
