import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { probeImage, probeVideo, UnreadableMediaError } from "./probe-media";

/**
 * What a failed probe means: a verdict on the bytes (UnreadableMediaError: the creative fails at once), or an
 * error that says nothing about the file (its read failed, the tool was killed): the job tries again. The upload
 * job's own test (tests/upload-job/transient-media-errors.test.ts) drives the retries through a server.
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "adloom-probe-"));
const mode = path.join(dir, "mode");
const ffprobeBefore = process.env.FFPROBE_PATH;
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
  if (ffprobeBefore === undefined) delete process.env.FFPROBE_PATH;
  else process.env.FFPROBE_PATH = ffprobeBefore;
});

describe("probeImage", () => {
  it("reads a real image's dimensions", async () => {
    const file = path.join(dir, "ok.png");
    fs.writeFileSync(
      file,
      await sharp({ create: { width: 12, height: 8, channels: 3, background: "red" } })
        .png()
        .toBuffer(),
    );
    expect(await probeImage(file)).toEqual({ width: 12, height: 8 });
  });

  it("calls bytes sharp cannot decode a verdict", async () => {
    const file = path.join(dir, "broken.png");
    const png = await sharp({ create: { width: 12, height: 8, channels: 3, background: "red" } })
      .png()
      .toBuffer();
    fs.writeFileSync(file, Buffer.concat([png.subarray(0, 16), Buffer.alloc(500, 7)]));
    await expect(probeImage(file)).rejects.toBeInstanceOf(UnreadableMediaError);
  });

  it("keeps a file it could not read out of the verdicts, with the system's code", async () => {
    // sharp answers a path it cannot read (here a directory; EMFILE or EACCES alike) with "unsupported image format".
    const unreadable = path.join(dir, "a-directory.png");
    fs.mkdirSync(unreadable);
    const err = await probeImage(unreadable).catch((e: unknown) => e);
    expect(err).not.toBeInstanceOf(UnreadableMediaError);
    expect(err).toMatchObject({ code: "EISDIR" });
    await expect(probeImage(path.join(dir, "missing.png"))).rejects.toMatchObject({ code: "ENOENT" });
  });
});

describe("probeVideo", () => {
  // FFPROBE_PATH is read once per process: this file's ffprobe answers as the mode file says.
  beforeAll(() => {
    const script = path.join(dir, "ffprobe");
    fs.writeFileSync(
      script,
      `#!/bin/sh
case "$(cat "${mode}")" in
  invalid) echo "$9: Invalid data found when processing input" >&2; exit 1 ;;
  eio) echo "$9: Input/output error" >&2; exit 1 ;;
  killed) kill -9 $$ ;;
  novideo) echo '{"streams": []}' ;;
esac
`,
      { mode: 0o755 },
    );
    process.env.FFPROBE_PATH = script;
  });

  const probe = async (answer: string) => {
    fs.writeFileSync(mode, answer);
    return probeVideo(path.join(dir, "clip.mp4")).catch((e: unknown) => e);
  };

  it("calls ffprobe's own refusal of the bytes, or a file without a video stream, a verdict", async () => {
    expect(await probe("invalid")).toBeInstanceOf(UnreadableMediaError);
    expect(await probe("novideo")).toBeInstanceOf(UnreadableMediaError);
  });

  it("keeps an I/O error ffprobe met, and ffprobe killed, out of the verdicts", async () => {
    const io = await probe("eio");
    expect(io).not.toBeInstanceOf(UnreadableMediaError);
    expect((io as Error).message).toMatch(/ffprobe failed: .*Input\/output error/);
    const killed = await probe("killed");
    expect(killed).not.toBeInstanceOf(UnreadableMediaError);
    expect((killed as Error).message).toBe("ffprobe failed: killed by SIGKILL");
  });
});
