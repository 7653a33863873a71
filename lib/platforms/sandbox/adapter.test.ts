import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "@/lib/config";
import { createServices, disposeServices } from "@/lib/services";
import type { PushRequest } from "../types";

// Real local media storage in a throwaway directory: this file's own service registry.
createServices(
  parseConfig({ DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "adloom-sandbox-")), SANDBOX_SLOW_PUSH_MS: "300" } as unknown as NodeJS.ProcessEnv),
);
afterAll(disposeServices);

const { getStorage } = await import("@/lib/storage");
const { SandboxPlatformAdapter, sandboxFaultOf } = await import("./adapter");
const { PlatformError } = await import("../types");

let png: Buffer;
beforeAll(async () => {
  png = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#08f" } })
    .png()
    .toBuffer();
});

async function stored(bytes: Buffer): Promise<string> {
  const key = `ws_test/uploads/upl_${Math.random().toString(36).slice(2)}`;
  await getStorage().put(key, Readable.from([bytes]), { contentType: "application/octet-stream" });
  return key;
}

function request(over: Partial<PushRequest> & { storageKey: string; sizeBytes: number }): PushRequest {
  return {
    account: { id: "adacct_1", workspaceId: "ws_test", platform: "platform_a", mode: "sandbox", externalAccountId: "act_1", status: "active" },
    uploadId: "upl_1",
    fileName: "photo.png",
    kind: "image",
    contentType: "image/png",
    jobRun: 1,
    attempt: 1,
    ...over,
  };
}

async function refusal(promise: Promise<unknown>) {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(PlatformError);
  return err as InstanceType<typeof PlatformError>;
}

describe("sandbox platforms", () => {
  it("answers platform_a images with the MD5 of their bytes and everything else with numeric ids", async () => {
    const key = await stored(png);
    const a = new SandboxPlatformAdapter("platform_a");
    const b = new SandboxPlatformAdapter("platform_b");
    const md5 = (await import("node:crypto")).createHash("md5").update(png).digest("hex");
    expect(await a.pushMedia(request({ storageKey: key, sizeBytes: png.length }))).toEqual({ externalId: md5 });
    expect((await b.pushMedia(request({ storageKey: key, sizeBytes: png.length }))).externalId).toMatch(/^[1-9]\d{18}$/);
  });

  it("refuses empty files, the wrong kind of media and unknown formats terminally", async () => {
    const a = new SandboxPlatformAdapter("platform_a");
    const empty = await stored(Buffer.alloc(0));
    expect(await refusal(a.pushMedia(request({ storageKey: empty, sizeBytes: 0 })))).toMatchObject({ code: "invalid_input", retryable: false });
    const image = await stored(png);
    const asVideo = await refusal(a.pushMedia(request({ storageKey: image, sizeBytes: png.length, kind: "video", fileName: "x.mp4" })));
    expect(asVideo).toMatchObject({ code: "invalid_input", retryable: false });
    expect(asVideo.message).toContain("image/png");
    const text = Buffer.from("definitely not media");
    const junk = await stored(text);
    expect(await refusal(a.pushMedia(request({ storageKey: junk, sizeBytes: text.length })))).toMatchObject({ code: "invalid_input" });
    expect(await refusal(a.pushMedia(request({ storageKey: "ws_test/uploads/missing", sizeBytes: 10 })))).toMatchObject({ code: "invalid_input" });
  });

  it("treats an incomplete transfer as retryable", async () => {
    const key = await stored(png);
    const err = await refusal(new SandboxPlatformAdapter("platform_b").pushMedia(request({ storageKey: key, sizeBytes: png.length + 10 })));
    expect(err).toMatchObject({ code: "upstream_error", retryable: true });
  });

  it("is steered by file name prefixes", async () => {
    expect(["sandbox-fail-once.png", "SANDBOX-FAIL.png", "sandbox-flaky-x.mp4", "sandbox-slow.jpg", "mysandbox-fail.png"].map(sandboxFaultOf)).toEqual([
      "fail-once",
      "fail",
      "flaky",
      "slow",
      null,
    ]);
    const key = await stored(png);
    const a = new SandboxPlatformAdapter("platform_a");
    const base = { storageKey: key, sizeBytes: png.length };
    for (const attempt of [1, 2, 5]) {
      expect(await refusal(a.pushMedia(request({ ...base, fileName: "sandbox-fail.png", attempt, jobRun: 3 })))).toMatchObject({ retryable: true });
    }
    expect(await refusal(a.pushMedia(request({ ...base, fileName: "sandbox-fail-once.png", attempt: 4, jobRun: 1 })))).toMatchObject({ retryable: true });
    expect((await a.pushMedia(request({ ...base, fileName: "sandbox-fail-once.png", jobRun: 2 }))).externalId).toMatch(/^[0-9a-f]{32}$/);
    expect(await refusal(a.pushMedia(request({ ...base, fileName: "sandbox-flaky.png", attempt: 1 })))).toMatchObject({
      code: "upstream_busy",
      retryable: true,
    });
    expect((await a.pushMedia(request({ ...base, fileName: "sandbox-flaky.png", attempt: 2 }))).externalId).toMatch(/^[0-9a-f]{32}$/);
    const started = Date.now();
    await a.pushMedia(request({ ...base, fileName: "sandbox-slow.png" }));
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  });
});
