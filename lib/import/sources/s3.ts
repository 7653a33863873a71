import http from "node:http";
import https from "node:https";
import type { Readable } from "node:stream";
import { GetObjectCommand, HeadBucketCommand, HeadObjectCommand, ListObjectsV2Command, S3Client, S3ServiceException } from "@aws-sdk/client-s3";
import { AppError } from "@/lib/errors";
import { ADDRESS_NOT_ALLOWED, guardedLookup, type UrlPolicy } from "@/lib/webhooks/url-policy";
import type { SourceEntry, StorageSource } from "./types";

export interface S3SourceSettings {
  bucket: string;
  region: string;
  /** Any S3-compatible endpoint (MinIO, R2, Wasabi, ...); absent: AWS. */
  endpoint: string | null;
  forcePathStyle: boolean;
}

export interface S3SourceSecrets {
  accessKeyId: string;
  secretAccessKey: string;
}

const PAGE = 200;

/** An S3-compatible bucket read with an access key: folders are key prefixes ending in "/". */
export class S3Source implements StorageSource {
  private readonly client: S3Client;

  /** `addressPolicy` is applied to every connection the client opens, not only when the endpoint was saved. */
  constructor(
    private readonly settings: S3SourceSettings,
    secrets: S3SourceSecrets,
    addressPolicy: UrlPolicy,
  ) {
    const lookup = guardedLookup(addressPolicy);
    this.client = new S3Client({
      region: settings.region,
      endpoint: settings.endpoint ?? undefined,
      forcePathStyle: settings.forcePathStyle,
      credentials: { accessKeyId: secrets.accessKeyId, secretAccessKey: secrets.secretAccessKey },
      maxAttempts: 2,
      // The SDK's own agents' settings (kept-alive, 50 sockets), with the policy's lookup.
      requestHandler: {
        httpAgent: new http.Agent({ keepAlive: true, maxSockets: 50, lookup }),
        httpsAgent: new https.Agent({ keepAlive: true, maxSockets: 50, lookup }),
      },
    });
  }

  /** Closes the client's kept connections. */
  close(): void {
    this.client.destroy();
  }

  async verify(): Promise<void> {
    await this.call(() => this.client.send(new HeadBucketCommand({ Bucket: this.settings.bucket })));
  }

  async browse(path: string, cursor: string | null) {
    const prefix = folderPrefix(path);
    const page = await this.call(() =>
      this.client.send(
        new ListObjectsV2Command({ Bucket: this.settings.bucket, Prefix: prefix, Delimiter: "/", MaxKeys: PAGE, ContinuationToken: cursor ?? undefined }),
      ),
    );
    const folders: SourceEntry[] = (page.CommonPrefixes ?? []).map((p) => ({
      id: p.Prefix!,
      path: p.Prefix!,
      name: p.Prefix!.slice(prefix.length).replace(/\/$/, ""),
      isFolder: true,
      sizeBytes: null,
      revision: null,
      modifiedAt: null,
    }));
    const files = (page.Contents ?? []).filter((o) => o.Key && !o.Key.endsWith("/")).map((o) => fileEntry(o));
    return { entries: [...folders, ...files], nextCursor: page.IsTruncated ? (page.NextContinuationToken ?? null) : null };
  }

  async stat(id: string): Promise<SourceEntry> {
    const head = await this.call(() => this.client.send(new HeadObjectCommand({ Bucket: this.settings.bucket, Key: id })), id);
    return {
      id,
      path: id,
      name: baseName(id),
      isFolder: false,
      sizeBytes: head.ContentLength ?? null,
      revision: head.ETag ?? null,
      modifiedAt: head.LastModified?.toISOString() ?? null,
    };
  }

  async open(id: string) {
    const object = await this.call(() => this.client.send(new GetObjectCommand({ Bucket: this.settings.bucket, Key: id })), id);
    return { stream: object.Body as Readable, sizeBytes: object.ContentLength ?? null, revision: object.ETag ?? null, contentType: object.ContentType ?? null };
  }

  /** Buckets have no change feed: the whole prefix is listed, and key + ETag tell what is new. */
  async listFolder(path: string) {
    const prefix = folderPrefix(path);
    const files: SourceEntry[] = [];
    let token: string | undefined;
    do {
      const page = await this.call(() =>
        this.client.send(new ListObjectsV2Command({ Bucket: this.settings.bucket, Prefix: prefix, MaxKeys: 1000, ContinuationToken: token })),
      );
      for (const o of page.Contents ?? []) if (o.Key && !o.Key.endsWith("/")) files.push(fileEntry(o));
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return { files, cursor: null };
  }

  private async call<T>(send: () => Promise<T>, key?: string): Promise<T> {
    try {
      return await send();
    } catch (err) {
      if (err instanceof S3ServiceException) {
        const status = err.$metadata?.httpStatusCode;
        if (status === 404 || err.name === "NoSuchKey" || err.name === "NotFound") {
          if (key === undefined || err.name === "NoSuchBucket") throw new AppError("invalid_input", `No bucket ${this.settings.bucket} at this endpoint`);
          throw new AppError("not_found", `No object "${key}" in bucket ${this.settings.bucket}`);
        }
        // A request the bucket refused as malformed: a continuation token or a key it does not accept.
        if (status === 400) throw new AppError("invalid_input", `The bucket refused the request (${err.name}): ${err.message}`);
        if (status === 403 || status === 401) {
          throw new AppError("invalid_input", `The bucket refused the access key (${err.name}): check the key and its permissions on ${this.settings.bucket}`);
        }
        throw new AppError("upstream_error", `The bucket answered ${status ?? "an error"}: ${err.name}`);
      }
      if ((err as NodeJS.ErrnoException).code === ADDRESS_NOT_ALLOWED) {
        throw new AppError("invalid_input", `endpoint: ${(err as Error).message.replace("webhooks go to", "storage endpoints are")}`);
      }
      throw new AppError("upstream_error", `The bucket could not be reached: ${(err as Error).message}`);
    }
  }
}

function fileEntry(o: { Key?: string; Size?: number; ETag?: string; LastModified?: Date }): SourceEntry {
  return {
    id: o.Key!,
    path: o.Key!,
    name: baseName(o.Key!),
    isFolder: false,
    sizeBytes: o.Size ?? null,
    revision: o.ETag ?? null,
    modifiedAt: o.LastModified?.toISOString() ?? null,
  };
}

function folderPrefix(path: string): string {
  const trimmed = path.replace(/^\/+/, "");
  return trimmed === "" || trimmed.endsWith("/") ? trimmed : `${trimmed}/`;
}

function baseName(key: string): string {
  return key.split("/").filter(Boolean).pop() ?? key;
}
