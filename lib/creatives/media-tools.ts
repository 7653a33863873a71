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
 * Runs a media tool with a hard timeout (a stuck transcode must never hang a job); rejects with its
 * stderr. Waits for a free media slot first (one process per core), and the timeout starts then.
 */
export function runMediaTool(binary: string, args: string[], timeoutMs: number): Promise<string> {
  return withMediaSlot(() => spawnMediaTool(binary, args, timeoutMs));
}

function spawnMediaTool(binary: string, args: string[], timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(binary, args, { timeout: timeoutMs, killSignal: "SIGKILL", maxBuffer: 8 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (!error) return resolve(stdout);
      const reason = error.killed ? `timed out after ${timeoutMs} ms` : stderr.trim().split("\n").slice(-3).join(" ") || error.message;
      reject(new Error(`${path.basename(binary)} failed: ${reason}`));
    });
  });
}
