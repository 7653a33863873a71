/**
 * The operator CLI's first stage (scripts/admin.mjs): a command for the server that owns the data directory is
 * handed to it from here, with none of the app loaded. Anything else (no server, an offline command, a configuration
 * error to report, a socket that fails) returns, and scripts/admin.ts runs or reports it in this process.
 */
import { operatorArgv, printAnswer, whereToRun } from "@/lib/admin/cli-dispatch";
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
  const answer = await handToServer(dataDir, argv).catch(() => null);
  if (answer) printAnswer(answer.body, answer.ok);
}
