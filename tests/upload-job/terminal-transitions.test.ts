/**
 * The upload job's terminal transitions driven in-process against a real database, the way a
 * step repeated after a crash (or a stale run) would call them: the conditions that keep
 * "exactly one terminal event per job run" cannot be staged reliably through a server kill alone.
 */
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disposeServices } from "@/lib/services";
import { useFreshDatabase } from "../helpers/in-process-db";
import { pngImage } from "../helpers/media-fixtures";

type Finish = typeof import("@/lib/upload-job/finish-upload");
let finish: Finish;
let db: ReturnType<typeof import("@/lib/db/client").getDb>;
let workspaceId: string;

beforeAll(async () => {
  await useFreshDatabase("upload_terminal");
  finish = await import("@/lib/upload-job/finish-upload");
  db = (await import("@/lib/db/client")).getDb();
  const { createWorkspace } = await import("@/lib/workspaces/workspaces");
  workspaceId = (await createWorkspace({ name: "Terminal", plan: "pro" })).workspaceId;
});
afterAll(disposeServices);

let n = 0;
async function processingUpload(jobRun = 1) {
  const { getStorage, uploadStorageKey } = await import("@/lib/storage");
  const id = `upl_terminal${++n}`;
  const bytes = await pngImage(12, 8);
  await getStorage().put(uploadStorageKey(workspaceId, id), Readable.from([bytes]), { contentType: "image/png" });
  return db.upload.create({
    data: {
      id,
      workspaceId,
      createdById: "usr_x",
      fileName: `t${n}.png`,
      kind: "image",
      contentType: "image/png",
      sizeBytes: bytes.length,
      storageKey: uploadStorageKey(workspaceId, id),
      platform: "platform_a",
      jobRun,
    },
  });
}

const eventsOf = (uploadId: string) => db.webhookEvent.findMany({ where: { workspaceId, dedupeKey: { contains: uploadId } } });

describe("terminal transitions of an upload job run", () => {
  it("completing twice (a repeated step) files one creative and records one upload.completed", async () => {
    const upload = await processingUpload();
    const first = await finish.completeUpload({ uploadId: upload.id, jobRun: 1, externalId: "a".repeat(32) });
    const again = await finish.completeUpload({ uploadId: upload.id, jobRun: 1, externalId: "b".repeat(32) });
    expect(again.creativeId).toBe(first.creativeId);
    const row = await db.upload.findUniqueOrThrow({ where: { id: upload.id } });
    expect(row).toMatchObject({ status: "completed", platformAImageHash: "a".repeat(32), creativeId: first.creativeId });
    expect(await db.creative.count({ where: { uploadId: upload.id } })).toBe(1);
    const events = await eventsOf(upload.id);
    expect(events.map((e) => e.type)).toEqual(["upload.completed"]);
    expect(JSON.parse(events[0]!.body).data.upload).toMatchObject({ id: upload.id, status: "completed", platform_a: { imageHash: "a".repeat(32) } });
  });

  it("a stale run (older jobRun) changes nothing and emits nothing", async () => {
    const upload = await processingUpload(2);
    await finish.failUpload({ uploadId: upload.id, jobRun: 1, error: "late" });
    expect(await finish.completeUpload({ uploadId: upload.id, jobRun: 1, externalId: "x" })).toEqual({ creativeId: null });
    expect((await db.upload.findUniqueOrThrow({ where: { id: upload.id } })).status).toBe("processing");
    expect(await eventsOf(upload.id)).toEqual([]);
  });

  it("failing twice records one upload.failed; a completion after the failure is refused", async () => {
    const upload = await processingUpload();
    await finish.failUpload({ uploadId: upload.id, jobRun: 1, error: "platform_a said no" });
    await finish.failUpload({ uploadId: upload.id, jobRun: 1, error: "platform_a said no" });
    expect(await finish.completeUpload({ uploadId: upload.id, jobRun: 1, externalId: "y" })).toEqual({ creativeId: null });
    expect(await db.upload.findUniqueOrThrow({ where: { id: upload.id } })).toMatchObject({ status: "failed", error: "platform_a said no" });
    expect((await eventsOf(upload.id)).map((e) => e.type)).toEqual(["upload.failed"]);
  });

  it("each job run of a retried upload gets its own event", async () => {
    const upload = await processingUpload();
    await finish.failUpload({ uploadId: upload.id, jobRun: 1, error: "first run" });
    await db.upload.update({ where: { id: upload.id }, data: { status: "processing", jobRun: 2, error: null } });
    await finish.completeUpload({ uploadId: upload.id, jobRun: 2, externalId: "c".repeat(32) });
    await finish.completeUpload({ uploadId: upload.id, jobRun: 2, externalId: "c".repeat(32) });
    expect((await eventsOf(upload.id)).map((e) => e.dedupeKey).sort()).toEqual([`upload.completed:${upload.id}:2`, `upload.failed:${upload.id}:1`]);
  });

  it("a retry that starts the moment the upload reads failed still leaves the failed run its event", async () => {
    const upload = await processingUpload();
    const failing = finish.failUpload({ uploadId: upload.id, jobRun: 1, error: "refused at once" });
    // retry_upload's own condition, polled as tightly as the database answers: run 2 starts as soon as run 1's failure is visible.
    for (let retried = 0; !retried; ) {
      ({ count: retried } = await db.upload.updateMany({
        where: { id: upload.id, status: "failed" },
        data: { status: "processing", error: null, finishedAt: null, jobRun: { increment: 1 } },
      }));
    }
    await failing;
    await finish.completeUpload({ uploadId: upload.id, jobRun: 2, externalId: "f".repeat(32) });
    const events = await eventsOf(upload.id);
    expect(events.map((e) => e.dedupeKey).sort()).toEqual([`upload.completed:${upload.id}:2`, `upload.failed:${upload.id}:1`]);
    const failed = JSON.parse(events.find((e) => e.type === "upload.failed")!.body).data.upload;
    expect(failed).toMatchObject({ id: upload.id, status: "failed", error: "refused at once" });
  });

  it("an abandoned run fails a processing upload, and fails the importing creative of a completed one", async () => {
    const processing = await processingUpload();
    await finish.abandonRun({ uploadId: processing.id, jobRun: 1, reason: "database unreachable" });
    expect((await db.upload.findUniqueOrThrow({ where: { id: processing.id } })).error).toMatch(/stopped unexpectedly: database unreachable/);

    const completed = await processingUpload();
    const { creativeId } = await finish.completeUpload({ uploadId: completed.id, jobRun: 1, externalId: "d".repeat(32) });
    await finish.abandonRun({ uploadId: completed.id, jobRun: 1, reason: "storage unreachable" });
    expect((await db.upload.findUniqueOrThrow({ where: { id: completed.id } })).status).toBe("completed");
    expect(await db.creative.findUniqueOrThrow({ where: { id: creativeId! } })).toMatchObject({ status: "failed" });
    expect((await eventsOf(completed.id)).map((e) => e.type)).toEqual(["upload.completed"]);
  });

  it("imports the filed creative: dimensions from the bytes, then ready", async () => {
    const upload = await processingUpload();
    const { creativeId } = await finish.completeUpload({ uploadId: upload.id, jobRun: 1, externalId: "e".repeat(32) });
    const { finishCreativeImport } = await import("@/lib/creatives/import-creative");
    expect(await finishCreativeImport(creativeId!)).toEqual({ status: "ready", kind: "image" });
    expect(await finishCreativeImport(creativeId!)).toEqual({ status: "ready", kind: "image" });
    expect(await db.creative.findUniqueOrThrow({ where: { id: creativeId! } })).toMatchObject({ status: "ready", width: 12, height: 8 });
    expect(await finishCreativeImport("crv_gone")).toEqual({ status: "gone" });
  });
});
