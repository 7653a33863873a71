/**
 * The operator CLI's first stage (scripts/admin.mjs): a command for the server that owns the data directory is
 * handed to it from here, with none of the app loaded, and its answer (or the failure to get one) printed. Anything
 * else (no server, an offline command, a configuration error to report) returns, and scripts/admin.ts runs or reports
 * it in this process. A command once handed over is never sent again: the server may have run it.
 */
import { adminErrorBody, operatorArgv, printAnswer, whereToRun } from "@/lib/admin/cli-dispatch";
import { handToServer } from "@/lib/admin/socket-client";
import { parseConfig } from "@/lib/config";

export async function handOffToServer(): Promise<void> {
  const argv = operatorArgv();
  let dataDir: string;
  try {
    const config = parseConfig(process.env);
    if (whereToRun(argv, config) !== "server") return;
    dataDir = config.dataDir;
  } catch {
    return;
  }
  const answer = await handToServer(dataDir, argv).catch((err: unknown) => ({ ok: false, body: adminErrorBody(err) }));
  printAnswer(answer.body, answer.ok);
}
