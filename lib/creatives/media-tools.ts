import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { withMediaSlot } from "./media-slots";

/** A binary on PATH (FFMPEG_PATH / FFPROBE_PATH override it), or null when absent. */
function resolveBinary(name: "ffmpeg" | "ffprobe"): string | null {
  const override = process.env[`${name.toUpperCase()}_PATH`];
  if (override) return fs.existsSync(override) ? override : null;
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      /* not here */
    }
  }
  return null;
}

const cache = new Map<string, string | null>();

/** Path of ffmpeg or ffprobe, looked up once per process; null when not installed. */
export function mediaTool(name: "ffmpeg" | "ffprobe"): string | null {
  if (!cache.has(name)) cache.set(name, resolveBinary(name));
  return cache.get(name)!;
}

/**
 * A media tool that did not finish its work, and how: it exited with an error of its own (`exitCode`, what it
 * printed in `stderr`), or it never got to judge the file (killed by a signal, timed out, or not started:
 * `spawnCode` is then the system's error, e.g. EAGAIN or EMFILE).
 */
export class MediaToolError extends Error {
  constructor(
    message: string,
    readonly detail: { exitCode: number | null; signal: string | null; timedOut: boolean; spawnCode: string | null; stderr: string },
  ) {
    super(message);
    this.name = "MediaToolError";
  }
}

/**
 * Runs a media tool with a hard timeout (a stuck transcode must never hang a job); rejects with a
 * MediaToolError naming its stderr, its signal or its timeout. Waits for a free media slot first (one
 * process per core), and the timeout starts then.
 */
export function runMediaTool(binary: string, args: string[], timeoutMs: number): Promise<string> {
  return withMediaSlot(() => spawnMediaTool(binary, args, timeoutMs));
}

function spawnMediaTool(binary: string, args: string[], timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(binary, args, { timeout: timeoutMs, killSignal: "SIGKILL", maxBuffer: 8 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (!error) return resolve(stdout);
      const name = path.basename(binary);
      const code = (error as { code?: unknown }).code;
      const detail = {
        exitCode: typeof code === "number" ? code : null,
        signal: error.signal ?? null,
        timedOut: Boolean(error.killed),
        spawnCode: typeof code === "string" ? code : null,
        stderr: stderr.trim().split("\n").slice(-3).join(" "),
      };
      const reason = detail.timedOut
        ? `timed out after ${timeoutMs} ms`
        : detail.signal
          ? `killed by ${detail.signal}`
          : detail.spawnCode
            ? `could not start (${detail.spawnCode})`
            : detail.stderr || error.message;
      reject(new MediaToolError(`${name} failed: ${reason}`, detail));
    });
  });
}
