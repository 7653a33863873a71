import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { adminErrorBody, runAdminCommand } from "./commands";

/**
 * The embedded database can be open in one process only. While the server owns
 * it, the operator CLI hands its command to the server over this unix socket
 * (owner-only file permissions) and the server runs it in-process.
 */
export function adminSocketPath(dataDir: string): string {
  return path.join(dataDir, "admin.sock");
}

const globalForAdmin = globalThis as unknown as { __adloomAdminSocket?: http.Server };

export async function startAdminSocket(dataDir: string): Promise<void> {
  if (globalForAdmin.__adloomAdminSocket) return;
  const socketPath = adminSocketPath(dataDir);
  fs.mkdirSync(dataDir, { recursive: true });
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
  globalForAdmin.__adloomAdminSocket = server;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(socketPath, () => resolve());
  });
  fs.chmodSync(socketPath, 0o600);
  process.once("exit", () => fs.rmSync(socketPath, { force: true }));
}

/** Stops serving the operator socket (shutdown); commands in flight finish first. */
export async function closeAdminSocket(): Promise<void> {
  const server = globalForAdmin.__adloomAdminSocket;
  globalForAdmin.__adloomAdminSocket = undefined;
  if (!server) return;
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** Runs a command in the server that owns the database; resolves to its JSON answer and whether it succeeded. */
export function sendAdminCommand(dataDir: string, argv: string[]): Promise<{ ok: boolean; body: object }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ socketPath: adminSocketPath(dataDir), method: "POST", path: "/" }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        try {
          resolve({ ok: res.statusCode === 200, body: JSON.parse(Buffer.concat(chunks).toString("utf8")) as object });
        } catch (err) {
          reject(err);
        }
      });
    });
    req.on("error", reject);
    req.end(JSON.stringify({ argv }));
  });
}
