import fs from "node:fs/promises";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { DeleteObjectCommand, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import S3rver from "s3rver";

/** A local S3-compatible server (s3rver) with one bucket, and a client to fill it. */
export interface S3Fake {
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  client: S3Client;
  put(key: string, body: Buffer | Uint8Array | string, contentType?: string): Promise<void>;
  remove(key: string): Promise<void>;
  close(): Promise<void>;
}

export async function startS3Fake(bucket = `import-${Date.now()}`): Promise<S3Fake> {
  const directory = await fs.mkdtemp(path.join(os.tmpdir(), "adloom-s3-fake-"));
  const server = new S3rver({ address: "127.0.0.1", port: 0, silent: process.env.S3_FAKE_VERBOSE !== "1", directory, configureBuckets: [{ name: bucket }] });
  const { port } = (await server.run()) as AddressInfo;
  const endpoint = `http://127.0.0.1:${port}`;
  // s3rver's one account.
  const credentials = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };
  const client = new S3Client({ region: "us-east-1", endpoint, forcePathStyle: true, credentials });
  return {
    endpoint,
    bucket,
    ...credentials,
    client,
    put: async (key, body, contentType = "application/octet-stream") => {
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ContentType: contentType }));
    },
    remove: async (key) => {
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
    },
    close: async () => {
      client.destroy();
      await server.close();
      await fs.rm(directory, { recursive: true, force: true });
    },
  };
}

/** connect_storage arguments for the fake. */
export function s3ConnectArgs(fake: S3Fake, overrides: Record<string, unknown> = {}) {
  return { provider: "s3", bucket: fake.bucket, endpoint: fake.endpoint, accessKeyId: fake.accessKeyId, secretAccessKey: fake.secretAccessKey, ...overrides };
}
