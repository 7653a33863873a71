/**
 * Operator CLI: `npm run --silent admin -- <command> [flags]`. Prints exactly one
 * JSON object; exits 0 on success, 1 with {"error":{code,message}} otherwise.
 * A command for a running server has usually been handed over already by scripts/admin-handoff.ts.
 */
import { parseAdminCommand, runAdminCommand } from "@/lib/admin/commands";
import { adminErrorBody, operatorArgv, printAnswer, whereToRun } from "@/lib/admin/cli-dispatch";
import { handToServer } from "@/lib/admin/socket-client";
import { disposeServices, getConfig } from "@/lib/services";
import { ensureMigrated } from "@/lib/db/migrate-configured";

async function main(): Promise<void> {
  const argv = operatorArgv();
  try {
    const config = getConfig();
    parseAdminCommand(argv); // reject bad input before touching any database
    const where = whereToRun(argv, config);
    if (where === "server") {
      const answer = await handToServer(config.dataDir, argv);
      printAnswer(answer.body, answer.ok);
    }
    if (where === "here") await ensureMigrated(); // the server may never have run on this database
    const body = await runAdminCommand(argv);
    if (where === "here") await disposeServices();
    printAnswer(body, true);
  } catch (err) {
    printAnswer(adminErrorBody(err), false);
  }
}

void main();
