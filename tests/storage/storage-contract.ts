// The MediaStorage contract (lib/storage/media-storage.ts), run against every driver:
// tests/storage/local-driver.test.ts and tests/storage/s3-driver.test.ts call describeStorageContract().
import { createCipheriv, createHash, randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MediaStorage } from "@/lib/storage";

export interface StorageUnderTest {
  storage: MediaStorage;
  /** Extra driver-specific checks after an aborted put (e.g. no multipart upload left open). */
  afterAbortedPut?: (key: string) => Promise<void>;
  /** Extra driver-specific checks after the large put succeeded (e.g. how its multipart upload went). */
  afterLargePut?: (key: string) => Promise<void>;
  /** Multipart puts the driver made since the last call, when it can tell (S3); undefined otherwise. */
  takeMultipartCount?: () => number;
  cleanup?: () => Promise<void>;
}

export const MiB = 1024 * 1024;

/**
 * Deterministic pseudo-random bytes, produced chunk by chunk (never one big buffer): the AES-128-CTR keystream of a
 * key derived from `seed`. A contract run generates the 20 MB body about ten times: a SHA-256 per 32 bytes, as
 * before, made the local driver's file ~20 CPU-s (mostly the generator); the keystream brings it to ~3.
 */
export function generatedStream(totalBytes: number, seed: string, options: { failAfter?: number; chunkSize?: number } = {}): Readable {
  const chunkSize = options.chunkSize ?? 256 * 1024;
  const keystream = createCipheriv("aes-128-ctr", createHash("sha256").update(seed).digest().subarray(0, 16), Buffer.alloc(16));
  let produced = 0;
  return new Readable({
    read() {
      if (options.failAfter !== undefined && produced >= options.failAfter) {
        this.destroy(new Error("client went away"));
        return;
      }
      if (produced >= totalBytes) {
        this.push(null);
        return;
      }
      const size = Math.min(chunkSize, totalBytes - produced);
      this.push(keystream.update(Buffer.alloc(size)));
      produced += size;
    },
  });
}

/** sha256 and length of a stream's bytes. */
async function digestOf(stream: Readable): Promise<{ sha256: string; length: number }> {
  const hash = createHash("sha256");
  let length = 0;
  for await (const chunk of stream) {
    hash.update(chunk as Buffer);
    length += (chunk as Buffer).length;
  }
  return { sha256: hash.digest("hex"), length };
}

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The expected bytes [start, end] of generatedStream(total, seed), computed chunk by chunk. */
async function expectedRange(total: number, seed: string, start: number, end: number): Promise<Buffer> {
  const parts: Buffer[] = [];
  let offset = 0;
  for await (const chunk of generatedStream(total, seed)) {
    const buf = chunk as Buffer;
    const chunkEnd = offset + buf.length - 1;
    if (chunkEnd >= start && offset <= end) parts.push(buf.subarray(Math.max(0, start - offset), Math.min(buf.length, end - offset + 1)));
    offset += buf.length;
    if (offset > end) break;
  }
  return Buffer.concat(parts);
}

export function describeStorageContract(name: string, makeStorage: () => Promise<StorageUnderTest>): void {
  describe(`MediaStorage contract: ${name}`, () => {
    let sut: StorageUnderTest;
    let storage: MediaStorage;
    const prefix = `ws_${randomBytes(4).toString("hex")}`;
    const LARGE = 20 * MiB + 12345; // not a multiple of any part size
    const largeKey = `${prefix}/uploads/upl_large`;

    beforeAll(async () => {
      sut = await makeStorage();
      storage = sut.storage;
    });
    afterAll(async () => {
      await sut?.cleanup?.();
    });

    it("puts a large streamed body and reads it back whole", async () => {
      sut.takeMultipartCount?.();
      const result = await storage.put(largeKey, generatedStream(LARGE, "large"), { contentType: "video/mp4" });
      expect(result).toEqual({ sizeBytes: LARGE });
      if (sut.takeMultipartCount) expect(sut.takeMultipartCount()).toBe(1);
      await sut.afterLargePut?.(largeKey);

      const object = await storage.read(largeKey);
      expect(object).not.toBeNull();
      expect(object!.info.sizeBytes).toBe(LARGE);
      expect(object!.info.key).toBe(largeKey);
      expect(await digestOf(object!.stream)).toEqual(await digestOf(generatedStream(LARGE, "large")));
    });

    it("puts a small body in one piece", async () => {
      const key = `${prefix}/uploads/upl_small`;
      sut.takeMultipartCount?.();
      const result = await storage.put(key, Readable.from([Buffer.from("hello "), Buffer.from("world")]), { contentType: "image/png" });
      expect(result).toEqual({ sizeBytes: 11 });
      if (sut.takeMultipartCount) expect(sut.takeMultipartCount()).toBe(0);
      const object = await storage.read(key);
      expect((await bytesOf(object!.stream)).toString()).toBe("hello world");
    });

    it("stores an empty body", async () => {
      const key = `${prefix}/uploads/upl_empty`;
      expect(await storage.put(key, Readable.from([]), { contentType: "image/png" })).toEqual({ sizeBytes: 0 });
      expect((await storage.stat(key))?.sizeBytes).toBe(0);
      const object = await storage.read(key);
      expect((await bytesOf(object!.stream)).length).toBe(0);
    });

    it("reads byte ranges: content is the range, info.sizeBytes the whole object", async () => {
      for (const [start, end] of [
        [1, 1], // (not bytes=0-0: s3rver 3.7.1 reads an end of 0 as "to the end"; real S3 does not)
        [0, 99],
        [8 * MiB - 10, 8 * MiB + 9], // across a multipart part boundary
        [LARGE - 1000, LARGE - 1],
      ] as const) {
        const object = await storage.read(largeKey, { range: { start, end } });
        expect(object).not.toBeNull();
        expect(object!.info.sizeBytes).toBe(LARGE);
        const got = await bytesOf(object!.stream);
        expect(got.length).toBe(end - start + 1);
        expect(got.equals(await expectedRange(LARGE, "large", start, end))).toBe(true);
      }
    });

    it("reads byte ranges into one buffer (readBytes): the range, short at the end of the object, null for a missing key", async () => {
      for (const [start, end] of [
        [0, 100],
        [8 * MiB - 10, 8 * MiB + 10], // across a multipart part boundary
        [MiB, 9 * MiB + 7], // more than one read of the local driver and one network chunk of s3
      ] as const) {
        const got = await storage.readBytes(largeKey, start, end);
        expect(got!.length).toBe(end - start);
        expect(got!.equals(await expectedRange(LARGE, "large", start, end - 1))).toBe(true);
      }
      const tail = await storage.readBytes(largeKey, LARGE - 10, LARGE + 90);
      expect(tail!.equals(await expectedRange(LARGE, "large", LARGE - 10, LARGE - 1))).toBe(true);
      expect(await storage.readBytes(`${prefix}/uploads/upl_missing`, 0, 10)).toBeNull();
    });

    it("stats an object: size, a quoted etag, lastModified", async () => {
      const before = Date.now();
      const key = `${prefix}/uploads/upl_stat`;
      await storage.put(key, Readable.from([Buffer.from("0123456789")]), { contentType: "image/png" });
      const info = await storage.stat(key);
      expect(info).not.toBeNull();
      expect(info!.key).toBe(key);
      expect(info!.sizeBytes).toBe(10);
      expect(info!.etag).toMatch(/^"[^"]+"$/);
      expect(info!.lastModified).toBeInstanceOf(Date);
      // servers keep whole seconds at best; the clock is the same machine's
      expect(Math.abs(info!.lastModified.getTime() - before)).toBeLessThan(60_000);

      const read = await storage.read(key);
      expect(read!.info.etag).toBe(info!.etag);
      expect(read!.info.sizeBytes).toBe(10);
      read!.stream.resume();

      const large = await storage.stat(largeKey);
      expect(large!.sizeBytes).toBe(LARGE);
      expect(large!.etag).toMatch(/^"[^"]+"$/);
    });

    it("stat and read answer null for a missing key", async () => {
      expect(await storage.stat(`${prefix}/uploads/nope`)).toBeNull();
      expect(await storage.read(`${prefix}/uploads/nope`)).toBeNull();
      expect(await storage.read(`${prefix}/uploads/nope`, { range: { start: 0, end: 9 } })).toBeNull();
    });

    it("copies an object, overwriting the target", async () => {
      const to = `${prefix}/creatives/crv_1/original`;
      await storage.put(to, Readable.from([Buffer.from("old")]), { contentType: "image/png" });
      expect(await storage.copy(largeKey, to)).toBe(true);
      const copied = await storage.read(to);
      expect(copied!.info.sizeBytes).toBe(LARGE);
      expect(await digestOf(copied!.stream)).toEqual(await digestOf(generatedStream(LARGE, "large")));
      // the source is untouched
      expect((await storage.stat(largeKey))?.sizeBytes).toBe(LARGE);
    });

    it("copying a missing object answers false and creates nothing", async () => {
      const to = `${prefix}/creatives/crv_2/versions-missing`;
      expect(await storage.copy(`${prefix}/uploads/nope`, to)).toBe(false);
      expect(await storage.stat(to)).toBeNull();
    });

    it("deletes an object; reading it then answers null; deleting again is not an error", async () => {
      const key = `${prefix}/uploads/upl_delete`;
      await storage.put(key, Readable.from([Buffer.from("bye")]), { contentType: "image/png" });
      await storage.delete(key);
      expect(await storage.stat(key)).toBeNull();
      expect(await storage.read(key)).toBeNull();
      await expect(storage.delete(key)).resolves.toBeUndefined();
      await expect(storage.delete(`${prefix}/uploads/never-was`)).resolves.toBeUndefined();
      await expect(storage.withLocalFile(key, async () => "ran")).rejects.toMatchObject({ code: "ENOENT" });
    });

    it("a put whose body fails midway stores nothing and rethrows the body's error (small and multipart)", async () => {
      for (const [total, failAfter] of [
        [1 * MiB, 512 * 1024], // before any part would be flushed
        [LARGE, 17 * MiB], // after two multipart parts went up
      ] as const) {
        const key = `${prefix}/uploads/upl_aborted_${total}`;
        await expect(storage.put(key, generatedStream(total, "aborted", { failAfter }), { contentType: "video/mp4" })).rejects.toThrow("client went away");
        expect(await storage.stat(key)).toBeNull();
        expect(await storage.read(key)).toBeNull();
        await sut.afterAbortedPut?.(key);
      }
      // a failing body does not clobber an existing object either
      const kept = `${prefix}/uploads/upl_kept`;
      await storage.put(kept, Readable.from([Buffer.from("keep me")]), { contentType: "image/png" });
      await expect(storage.put(kept, generatedStream(10 * MiB, "x", { failAfter: 9 * MiB }), { contentType: "image/png" })).rejects.toThrow("client went away");
      expect((await bytesOf((await storage.read(kept))!.stream)).toString()).toBe("keep me");
    });

    it("withLocalFile gives a real path with the object's bytes and cleans up after", async () => {
      let seenPath = "";
      const digest = await storage.withLocalFile(largeKey, async (file) => {
        seenPath = file;
        const stat = await fs.stat(file);
        expect(stat.isFile()).toBe(true);
        expect(stat.size).toBe(LARGE);
        const handle = await fs.open(file);
        try {
          return await digestOf(handle.createReadStream());
        } finally {
          await handle.close().catch(() => undefined);
        }
      });
      expect(digest).toEqual(await digestOf(generatedStream(LARGE, "large")));
      if (storage.driver !== "local") {
        // remote drivers download to a temporary file that is gone once fn settles
        await expect(fs.access(seenPath)).rejects.toMatchObject({ code: "ENOENT" });
        // ... also when fn fails
        await expect(
          storage.withLocalFile(largeKey, async (file) => {
            seenPath = file;
            throw new Error("sharp exploded");
          }),
        ).rejects.toThrow("sharp exploded");
        await expect(fs.access(seenPath)).rejects.toMatchObject({ code: "ENOENT" });
      } else {
        // the local driver passes its own file, which stays
        await expect(fs.access(seenPath)).resolves.toBeUndefined();
      }
    });

    it("digests an object (md5, sha256) with its size and first bytes; null for a missing key", async () => {
      const head = (await bytesOf(generatedStream(LARGE, "large"))).subarray(0, 12);
      for (const algorithm of ["md5", "sha256"] as const) {
        const expected = createHash(algorithm);
        for await (const chunk of generatedStream(LARGE, "large")) expected.update(chunk as Buffer);
        expect(await storage.digest(largeKey, algorithm, { headBytes: 12 })).toEqual({ digest: expected.digest("hex"), sizeBytes: LARGE, head });
      }
      expect(await storage.digest(`${prefix}/uploads/upl_missing`, "md5")).toBeNull();
    });

    it("rejects invalid keys", async () => {
      await expect(storage.stat("../etc/passwd")).rejects.toThrow("Invalid storage key");
      await expect(storage.digest("../etc/passwd", "md5")).rejects.toThrow("Invalid storage key");
      await expect(storage.put("/abs", Readable.from([]), { contentType: "image/png" })).rejects.toThrow("Invalid storage key");
    });
  });
}
