import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { getServices } from "@/lib/services";
import { adminErrorBody } from "./cli-dispatch";
import { runAdminCommand } from "./commands";
import { adminSocketPath } from "./socket-client";

/**
 * The embedded database can be open in one process only. While the server owns
 * it, the operator CLI hands its command to the server over this unix socket
 * (owner-only file permissions) and the server runs it in-process. The CLI's side is ./socket-client.ts.
 */

/** Serves the operator CLI on `<dataDir>/run/admin.sock` while the process's services live. Idempotent. */
export async function startAdminSocket(dataDir: string): Promise<void> {
  await getServices().use("admin.socket", () => listen(adminSocketPath(dataDir)), close);
}

async function listen(socketPath: string): Promise<http.Server> {
  // The socket lives in a folder only the owner may enter: between listen() creating it (with the umask's mode) and the
  // chmod below, a group-writable umask would otherwise leave it open to the group for a moment.
  const folder = path.dirname(socketPath);
  fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
  fs.chmodSync(folder, 0o700); // made by an older version, or by hand, with other permissions
  fs.rmSync(socketPath, { force: true }); // left by a previous run that died
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      let status = 200;
      let body: object;
      try {
        const { argv } = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { argv: string[] };
        body = await runAdminCommand(argv);
      } catch (err) {
        status = 400;
        body = adminErrorBody(err);
      }
      res.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(socketPath, () => resolve());
  });
  fs.chmodSync(socketPath, 0o600);
  process.once("exit", () => fs.rmSync(socketPath, { force: true }));
  return server;
}

async function close(listening: Promise<http.Server>): Promise<void> {
  const server = await listening.catch(() => null);
  if (!server) return;
  const socketPath = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (typeof socketPath === "string") fs.rmSync(socketPath, { force: true });
}
