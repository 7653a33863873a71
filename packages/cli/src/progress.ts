import type { UploadProgress } from "@adloom/sdk";

function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * Per-file upload progress on stderr: redrawn bars on a terminal, one plain line per
 * finished file otherwise (logs and pipes stay readable).
 */
export function uploadProgress(fileNames: string[], sizes: (number | null)[], stream: NodeJS.WriteStream = process.stderr) {
  const tty = Boolean(stream.isTTY);
  const loaded = fileNames.map(() => 0);
  const reported = new Set<number>();
  let drawn = false;
  let lastDraw = 0;
  const width = Math.min(30, Math.max(...fileNames.map((n) => n.length)));

  const bar = (i: number) => {
    const total = sizes[i];
    const ratio = total ? Math.min(1, loaded[i]! / total) : 0;
    const filled = Math.round(ratio * 24);
    const name = fileNames[i]!.length > width ? fileNames[i]!.slice(0, width - 1) + "…" : fileNames[i]!.padEnd(width);
    return `${name} [${"#".repeat(filled)}${"-".repeat(24 - filled)}] ${String(Math.round(ratio * 100)).padStart(3)}% ${formatBytes(loaded[i]!)}${total ? ` / ${formatBytes(total)}` : ""}`;
  };
  const draw = (force = false) => {
    const now = Date.now();
    if (!force && now - lastDraw < 80) return;
    lastDraw = now;
    if (drawn) stream.write(`\x1b[${fileNames.length}A`);
    stream.write(fileNames.map((_, i) => `\x1b[2K${bar(i)}`).join("\n") + "\n");
    drawn = true;
  };
  const finishFile = (i: number) => {
    if (reported.has(i)) return;
    reported.add(i);
    if (!tty) stream.write(`sent ${fileNames[i]} (${formatBytes(loaded[i]!)})\n`);
  };

  return {
    onProgress(p: UploadProgress) {
      loaded[p.index] = p.loaded;
      for (let i = 0; i < p.index; i++) finishFile(i);
      if (tty) draw();
    },
    done() {
      for (let i = 0; i < fileNames.length; i++) finishFile(i);
      if (tty) draw(true);
    },
  };
}
