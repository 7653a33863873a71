// The embedded database's own thread (see ./client.ts): runs PGlite and executes the wire-protocol
// messages the main thread sends, one at a time and in order, answering with the raw response bytes.
import fs from "node:fs";
import path from "node:path";
import { parentPort, workerData } from "node:worker_threads";
import { PGlite } from "@electric-sql/pglite";

// PGlite runs initdb exactly when PG_VERSION is missing. A thread that created the cluster only says so and closes
// it: the main thread replaces it with one that opens the cluster, without initdb's memory (./client.ts).
const creating = !fs.existsSync(path.join(workerData.dataDir, "PG_VERSION"));
// PostgreSQL's default 128 MB of shared buffers is a second cache in this process, over the one the OS keeps of the
// same files (PGlite reads its data files through the file system). They fill as a server runs and never shrink:
// importing 200 files grew the server's RSS by about 80 MB of them. 16 MB changed no benchmark's throughput
// (docs/performance.md, import round 7). A command-line setting, so nothing is written into the data directory.
const SHARED_BUFFERS = "16MB";
const db = new PGlite(workerData.dataDir, { startParams: [...PGlite.defaultStartParams, "-c", `shared_buffers=${SHARED_BUFFERS}`] });
// Requests run strictly one after another (a failed start answers each of them with its error).
let queue = db.waitReady.catch(() => undefined);

function reply(id, outcome) {
  if (outcome.data) parentPort.postMessage({ id, data: outcome.data }, [outcome.data.buffer]);
  else parentPort.postMessage({ id, ...outcome });
}

async function run(request) {
  switch (request.type) {
    case "protocol": {
      // Errors come back inside the bytes (the main thread parses them); execProtocol (not
      // execProtocolRaw) so that PGlite's own per-call bookkeeping is reset every time.
      const { data } = await db.execProtocol(request.message, { syncToFs: request.syncToFs, throwOnError: false });
      // A private copy: the response may be a view into PGlite's reusable buffer.
      return { data: data.byteOffset === 0 && data.byteLength === data.buffer.byteLength ? data : data.slice() };
    }
    case "syncToFs":
      await db.syncToFs();
      return {};
    case "dump": {
      // The whole data directory as a gzipped tarball (PGlite's own format; loadDataDir reads it).
      const file = await db.dumpDataDir("gzip");
      return { data: new Uint8Array(await file.arrayBuffer()) };
    }
    case "close":
      await db.close();
      return {};
    default:
      throw new Error(`Unknown request ${request.type}`);
  }
}

parentPort.on("message", (request) => {
  queue = queue.then(() =>
    run(request).then(
      (outcome) => reply(request.id, outcome),
      (err) => reply(request.id, { error: { message: err?.message ?? String(err), stack: err?.stack } }),
    ),
  );
});

db.waitReady
  .then(async () => {
    if (!creating) return { ready: true };
    await db.close();
    return { ready: false, created: true };
  })
  .then(
    (answer) => parentPort.postMessage(answer),
    (err) => parentPort.postMessage({ ready: false, error: { message: err?.message ?? String(err) } }),
  );
