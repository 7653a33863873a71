import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { digestFile } from "./file-digest";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "adloom-digest-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function file(name: string, bytes: Buffer): string {
  const at = path.join(dir, name);
  fs.writeFileSync(at, bytes);
  return at;
}

describe("whole-file digests", () => {
  // 3.5 MB: several of the worker's 1 MB reads, the last one partial.
  const bytes = randomBytes(3.5 * 1024 * 1024);
  const expected = (algorithm: string) => createHash(algorithm).update(bytes).digest("hex");

  it("hashes a local file on a worker thread: digest, size and first bytes", async () => {
    const at = file("a.bin", bytes);
    for (const algorithm of ["md5", "sha256"] as const) {
      const result = await digestFile(at, algorithm, 32);
      expect(result).toEqual({ digest: expected(algorithm), sizeBytes: bytes.length, head: bytes.subarray(0, 32) });
    }
  });

  it("answers files side by side, an empty one, and a missing one with ENOENT", async () => {
    const others = Array.from({ length: 5 }, (_, i) => randomBytes(1000 * (i + 1)));
    const paths = others.map((b, i) => file(`b${i}.bin`, b));
    const results = await Promise.all(paths.map((p) => digestFile(p, "sha256", 4)));
    expect(results.map((r) => r.digest)).toEqual(others.map((b) => createHash("sha256").update(b).digest("hex")));
    expect(results.map((r) => r.head)).toEqual(others.map((b) => b.subarray(0, 4)));
    expect(await digestFile(file("empty.bin", Buffer.alloc(0)), "md5", 8)).toEqual({
      digest: createHash("md5").digest("hex"),
      sizeBytes: 0,
      head: Buffer.alloc(0),
    });
    await expect(digestFile(path.join(dir, "missing.bin"), "md5")).rejects.toMatchObject({ code: "ENOENT" });
  });
});
