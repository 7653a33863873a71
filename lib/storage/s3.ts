import { createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  UploadPartCommand,
} from "@aws-sdk/client-s3";
import { assertValidKey, type ByteRange, type MediaStorage, type StoredObjectInfo, type StoredObjectStream } from "./media-storage";

export interface S3StorageOptions {
  bucket: string;
  region: string;
  endpoint?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
}

/** S3 multipart parts must be at least 5 MiB (except the last); 8 MiB bounds memory per concurrent upload. */
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
      credentials:
        options.accessKeyId && options.secretAccessKey
          ? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey }
          : undefined, // the SDK's default chain (env, profile, instance role)
    });
  }

  /**
   * Small bodies go up in one PutObject; larger ones as a multipart upload, one part
   * buffered at a time. A failing body aborts the multipart upload, so nothing remains.
   * The SDK checksums every request body with CRC32 by default; a multipart upload must then
   * declare that algorithm when it is created and list each part's checksum when it is completed,
   * or S3 refuses the parts ("Checksum Type mismatch ... expected checksum Type: null").
   */
  async put(key: string, body: Readable, options: { contentType: string }): Promise<{ sizeBytes: number }> {
    assertValidKey(key);
    let uploadId: string | undefined;
    const parts: { ETag: string; PartNumber: number; ChecksumCRC32?: string }[] = [];
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let total = 0;

    const flushPart = async () => {
      if (!uploadId) {
        const created = await this.client.send(
          new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: key, ContentType: options.contentType, ChecksumAlgorithm: "CRC32" }),
        );
        uploadId = created.UploadId!;
      }
      const partNumber = parts.length + 1;
      const result = await this.client.send(
        new UploadPartCommand({
          Bucket: this.bucket,
          Key: key,
          UploadId: uploadId,
          PartNumber: partNumber,
          Body: Buffer.concat(pending),
          ChecksumAlgorithm: "CRC32",
        }),
      );
      parts.push({ ETag: result.ETag!, PartNumber: partNumber, ChecksumCRC32: result.ChecksumCRC32 });
      pending = [];
      pendingBytes = 0;
    };

    try {
      for await (const chunk of body) {
        const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
        pending.push(buf);
        pendingBytes += buf.length;
        total += buf.length;
        if (pendingBytes >= PART_SIZE) await flushPart();
      }
      if (!uploadId) {
        await this.client.send(
          new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: Buffer.concat(pending), ContentType: options.contentType }),
        );
        return { sizeBytes: total };
      }
      if (pendingBytes > 0) await flushPart();
      await this.client.send(
        new CompleteMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId, MultipartUpload: { Parts: parts } }),
      );
      return { sizeBytes: total };
    } catch (err) {
      if (uploadId) {
        await this.client
          .send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId }))
          .catch(() => undefined);
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

  async read(key: string, options: { range?: ByteRange } = {}): Promise<StoredObjectStream | null> {
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

  async delete(key: string): Promise<void> {
    assertValidKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async copy(fromKey: string, toKey: string): Promise<void> {
    assertValidKey(fromKey);
    assertValidKey(toKey);
    await this.client.send(new CopyObjectCommand({ Bucket: this.bucket, Key: toKey, CopySource: `${this.bucket}/${fromKey}` }));
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
  return (
    err instanceof S3ServiceException &&
    (err.name === "NotFound" || err.name === "NoSuchKey" || err.$metadata?.httpStatusCode === 404)
  );
}
