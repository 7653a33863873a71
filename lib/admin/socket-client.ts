import http from "node:http";
import path from "node:path";

/**
 * The operator CLI's side of the admin socket (lib/admin/socket.ts serves it in the process that owns the embedded
 * database). Node built-ins only: the CLI, the tests and the benches that hand a command over load none of the app.
 */
export function adminSocketPath(dataDir: string): string {
  return path.join(dataDir, "run", "admin.sock");
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

/** As sendAdminCommand, but a missing socket is an answer: no server runs on that data directory. */
export async function handToServer(dataDir: string, argv: string[]): Promise<{ ok: boolean; body: object }> {
  return sendAdminCommand(dataDir, argv).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== "ENOENT" && err.code !== "ECONNREFUSED") throw err;
    return {
      ok: false,
      body: { error: { code: "not_found", message: `No server is running on ${dataDir} (its admin socket is missing); start it first` } },
    };
  });
}
