import { createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import {
  AbortMultipartUploadCommand,
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  S3Client,
  S3ServiceException,
} from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import { digestFile, type DigestAlgorithm, type FileDigest } from "./file-digest";
import { assertValidKey, type MediaStorage, type ReadOptions, type StoredObjectInfo, type StoredObjectStream } from "./media-storage";

export interface S3StorageOptions {
  bucket: string;
  region: string;
  endpoint?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
}

/** S3 multipart parts must be at least 5 MiB (except the last); 8 MiB parts, one in flight, bound memory per upload. */
const PART_SIZE = 8 * 1024 * 1024;

/** Media in an S3-compatible bucket (AWS S3, MinIO, R2, ...), streamed in and out. */
export class S3MediaStorage implements MediaStorage {
  readonly driver = "s3" as const;
  private readonly client: S3Client;
  private readonly bucket: string;

  constructor(options: S3StorageOptions) {
    this.bucket = options.bucket;
    this.client = new S3Client({
      region: options.region,
      endpoint: options.endpoint,
      forcePathStyle: options.forcePathStyle,
      credentials: options.accessKeyId && options.secretAccessKey ? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey } : undefined, // the SDK's default chain (env, profile, instance role)
    });
  }

  /**
   * Streams the body up with @aws-sdk/lib-storage: a small body in one PutObject, a larger one as a
   * multipart upload, one part buffered at a time. Every request is CRC32-checksummed, declared when the
   * multipart upload is created (S3 refuses part checksums an upload was not created with).
   * A failing body aborts the multipart upload, so nothing remains, and its own error is rethrown.
   */
  async put(key: string, body: Readable, options: { contentType: string }): Promise<{ sizeBytes: number }> {
    assertValidKey(key);
    let total = 0;
    async function* counted(): AsyncGenerator<Buffer> {
      for await (const chunk of body) {
        const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
        total += buf.length;
        yield buf;
      }
    }
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: key, Body: Readable.from(counted()), ContentType: options.contentType, ChecksumAlgorithm: "CRC32" },
      partSize: PART_SIZE,
      queueSize: 1,
      // We abort ourselves: lib-storage would rethrow a failed abort in place of the body's own error.
      leavePartsOnError: true,
    });
    try {
      await upload.done();
      return { sizeBytes: total };
    } catch (err) {
      if (upload.uploadId) {
        await this.client.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: upload.uploadId })).catch(() => undefined);
      }
      throw err;
    }
  }

  async stat(key: string): Promise<StoredObjectInfo | null> {
    assertValidKey(key);
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { key, sizeBytes: head.ContentLength ?? 0, etag: head.ETag ?? `"${key}"`, lastModified: head.LastModified ?? new Date(0) };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async read(key: string, options: ReadOptions = {}): Promise<StoredObjectStream | null> {
    assertValidKey(key);
    const range = options.range;
    try {
      const object = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: key, Range: range ? `bytes=${range.start}-${range.end}` : undefined }),
      );
      const totalFromRange = object.ContentRange ? Number(object.ContentRange.split("/")[1]) : NaN;
      const sizeBytes = Number.isFinite(totalFromRange) ? totalFromRange : (object.ContentLength ?? 0);
      const stream = object.Body instanceof Readable ? object.Body : Readable.fromWeb(object.Body!.transformToWebStream() as never);
      return {
        info: { key, sizeBytes, etag: object.ETag ?? `"${key}"`, lastModified: object.LastModified ?? new Date(0) },
        stream,
      };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async readBytes(key: string, start: number, end: number): Promise<Buffer | null> {
    if (end <= start) return (await this.stat(key)) ? Buffer.alloc(0) : null;
    const object = await this.read(key, { range: { start, end: end - 1 } });
    if (!object) return null;
    const bytes = Buffer.allocUnsafe(end - start);
    let filled = 0;
    for await (const chunk of object.stream as AsyncIterable<Buffer>) {
      filled += chunk.copy(bytes, filled);
      if (filled === bytes.length) break;
    }
    return filled === bytes.length ? bytes : bytes.subarray(0, filled);
  }

  async delete(key: string): Promise<void> {
    assertValidKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async copy(fromKey: string, toKey: string): Promise<boolean> {
    assertValidKey(fromKey);
    assertValidKey(toKey);
    try {
      await this.client.send(new CopyObjectCommand({ Bucket: this.bucket, Key: toKey, CopySource: `${this.bucket}/${fromKey}` }));
      return true;
    } catch (err) {
      if (isNotFound(err)) return false;
      throw err;
    }
  }

  async digest(key: string, algorithm: DigestAlgorithm, options: { headBytes?: number } = {}): Promise<FileDigest | null> {
    // Downloaded first, so the hashing happens off this thread as for a local file.
    if (!(await this.stat(key))) return null;
    return this.withLocalFile(key, (file) => digestFile(file, algorithm, options.headBytes ?? 0));
  }

  async withLocalFile<T>(key: string, fn: (path: string) => Promise<T>): Promise<T> {
    const object = await this.read(key);
    if (!object) throw Object.assign(new Error(`No stored object ${key}`), { code: "ENOENT" });
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "adloom-media-"));
    try {
      const file = path.join(dir, path.basename(key));
      await pipeline(object.stream, createWriteStream(file));
      return await fn(file);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  }
}

function isNotFound(err: unknown): boolean {
  return err instanceof S3ServiceException && (err.name === "NotFound" || err.name === "NoSuchKey" || err.$metadata?.httpStatusCode === 404);
}
