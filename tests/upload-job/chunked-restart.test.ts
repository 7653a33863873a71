import path from "node:path";
import { currentOwner } from "@adloom/pglite-driver";
import { afterAll, describe, expect, it } from "vitest";
import { admin, createTenant } from "../helpers/fixtures";
import { finishedUpload, uploadIds, waitFor } from "../helpers/library";
import { mp4Video } from "../helpers/media-fixtures";
import { freshDatabaseUrl } from "../helpers/fresh-database";
import { startServer, tempDataDir, type TestServer } from "../helpers/server";
import { callTool } from "../tools/helpers";

const servers: TestServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.kill();
});

// The 200 MB video, in 24 chunks of 8 MiB, runs once: in the PostgreSQL project. The embedded-database run
// checks the same crash and resume with 24 chunks of 1 MiB from 25 MB, an eighth of the bytes to upload, hash and push.
const FULL_SIZE = process.env.TEST_DB === "postgres";
const CHUNK = FULL_SIZE ? 8 * 1024 * 1024 : 1024 * 1024;

describe("a chunked push across a server crash", () => {
  it("kill -9 during the chunked push of a video: after restart it resumes from the first unfinished chunk", async () => {
    const dataDir = tempDataDir("chunked-restart");
    // Each chunk of a sandbox-slow file takes 400 ms at the sandbox: 24 chunks, ~10 s, room to kill in the middle
    // (the kill comes at the third accepted chunk, polled every 300 ms).
    const env = { SANDBOX_SLOW_PUSH_MS: "400", MEDIA_CHUNK_BYTES: String(CHUNK) };
    const databaseUrl = await freshDatabaseUrl("chunked_restart");
    const first = await startServer({ dataDir, databaseUrl, env });
    servers.push(first);
    const tenant = await createTenant({ dataDir });
    const size = FULL_SIZE ? 200 * 1000 * 1000 : 25 * 1000 * 1000;
    const head = mp4Video(640, 360);
    const video = Buffer.concat([head, Buffer.alloc(size - head.length)]);
    const chunks = Math.ceil(size / CHUNK);
    expect(chunks).toBe(24);

    const [uploadId] = await uploadIds(tenant.key, [{ name: "sandbox-slow-big.mp4", type: "video/mp4", bytes: video }], {
      baseUrl: first.url,
      platform: "platform_a",
    }).catch((err) => {
      throw new Error(`the ${size / 1e6} MB upload failed (${err.cause?.code ?? err.message}); the server said:\n${first.output().slice(-4000)}`);
    });
    const sessionsOf = async () => (await admin<any>(["sandbox", "media", "--workspace", tenant.workspaceId], dataDir)).sessions;
    const atKill = await waitFor(
      "a few chunks at the sandbox",
      async () => {
        const [session] = await sessionsOf();
        return session && session.chunksAccepted >= 3 && session;
      },
      90_000,
      300,
    );
    await first.kill();
    expect(atKill.chunksAccepted).toBeLessThan(chunks);
    await waitFor("the killed server's database lock to be released", async () => currentOwner(path.join(dataDir, "db")) === null || undefined, 15_000);

    const second = await startServer({ dataDir, databaseUrl, env });
    servers.push(second);
    const upload = await finishedUpload(tenant.key, uploadId!, 120_000, second.url);
    expect(upload.status).toBe("completed");

    const sessions = await sessionsOf();
    // One upload session for the whole push: the restart continued it rather than starting over.
    expect(sessions).toHaveLength(1);
    const [session] = sessions;
    expect(upload.platform_a.videoId).toBe(session.videoId);
    expect(session).toMatchObject({ fileSize: size, receivedBytes: size, chunksAccepted: chunks, finished: true });
    // Nothing finished was sent again: at most the chunk in flight at the kill (accepted, not yet recorded).
    expect(session.chunksRepeated).toBeLessThanOrEqual(1);

    const creativeId =
      upload.creativeId ??
      (await waitFor("the creative", async () => (await callTool(tenant.key, "list_creatives", {}, {}, second.url)).body.result.creatives[0]?.id, 30_000));
    const { pushes } = (await callTool(tenant.key, "list_creative_pushes", { creativeId }, {}, second.url)).body.result;
    expect(pushes).toEqual([expect.objectContaining({ state: "ready", chunksDone: chunks, chunksTotal: chunks, externalId: session.videoId })]);
    await second.stop();
  }, 300_000);
});
