import { createHash } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { execFile } from "node:child_process";
import { promisify } from "node:util";

const run = promisify(execFile);

/**
 * A minimal npm registry serving only the given tarballs (packuments and tarballs, the two
 * requests `npm install` makes), so the packaging test installs exactly as a consumer would
 * after publishing, without the network. Every other name is 404.
 */
export async function localRegistry(tarballs: string[]): Promise<{ url: string; close: () => Promise<void> }> {
  const packages = new Map<string, { manifest: Record<string, unknown>; file: string; version: string }>();
  for (const file of tarballs) {
    const { stdout } = await run("tar", ["-xOzf", file, "package/package.json"]);
    const manifest = JSON.parse(stdout) as Record<string, unknown> & { name: string; version: string };
    packages.set(manifest.name, { manifest, file, version: manifest.version });
  }
  const server = http.createServer((req, res) => {
    const url = decodeURIComponent(req.url ?? "/");
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const tarball = /^\/-\/tarballs\/(.+)$/.exec(url);
    if (tarball) {
      const entry = packages.get(tarball[1]!);
      if (!entry) return void res.writeHead(404).end();
      res.writeHead(200, { "content-type": "application/octet-stream" });
      return void fs.createReadStream(entry.file).pipe(res);
    }
    const entry = packages.get(url.slice(1));
    if (!entry) return void res.writeHead(404, { "content-type": "application/json" }).end('{"error":"not found"}');
    const bytes = fs.readFileSync(entry.file);
    const dist = {
      tarball: `${base}/-/tarballs/${encodeURIComponent(String(entry.manifest.name))}`,
      shasum: createHash("sha1").update(bytes).digest("hex"),
      integrity: `sha512-${createHash("sha512").update(bytes).digest("base64")}`,
    };
    const body = {
      name: entry.manifest.name,
      "dist-tags": { latest: entry.version },
      versions: { [entry.version]: { ...entry.manifest, _id: `${String(entry.manifest.name)}@${entry.version}`, dist } },
    };
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
