// The S3 driver against the MediaStorage contract, on a real S3-compatible server (s3rver) on loopback.
// Needs no database: it ignores the shared server tests/global-setup.ts starts, so it runs the same under both TEST_DB values.
import fs from "node:fs/promises";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import S3rver from "s3rver";
import { expect } from "vitest";
import { S3MediaStorage } from "@/lib/storage";
import { describeStorageContract } from "./storage-contract";

interface SentCommand {
  name: string;
  input: Record<string, unknown>;
  status?: number;
}

describeStorageContract("s3 (s3rver)", async () => {
  const directory = await fs.mkdtemp(path.join(os.tmpdir(), "adloom-s3rver-"));
  const bucket = "adloom-media-test";
  const server = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = (await server.run()) as AddressInfo;

  const storage = new S3MediaStorage({
    bucket,
    region: "us-east-1",
    endpoint: `http://127.0.0.1:${port}`,
    accessKeyId: "S3RVER",
    secretAccessKey: "S3RVER",
    forcePathStyle: true,
  });

  // Record every command the driver sends (and the HTTP status it got), to check multipart use and aborts.
  const sent: SentCommand[] = [];
  storage["client"].middlewareStack.add(
    (next, context) => async (args) => {
      const record: SentCommand = { name: context.commandName ?? "?", input: args.input as Record<string, unknown> };
      sent.push(record);
      try {
        const result = await next(args);
        record.status = (result.output as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
        return result;
      } catch (err) {
        record.status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
        throw err;
      }
    },
    { step: "initialize", name: "recordCommands" },
  );
  let seen = 0;

  return {
    storage,
    takeMultipartCount: () => {
      const count = sent.slice(seen).filter((c) => c.name === "CreateMultipartUploadCommand").length;
      seen = sent.length;
      return count;
    },
    afterLargePut: async (key) => {
      // 20 MB + a bit in 8 MiB parts: 3 parts, CRC32-checksummed consistently from creation to completion
      // (S3 refuses part checksums the upload was not created with). s3rver ignores checksums, so check what was sent.
      const create = sent.filter((c) => c.name === "CreateMultipartUploadCommand" && c.input.Key === key);
      const uploads = sent.filter((c) => c.name === "UploadPartCommand" && c.input.Key === key);
      const complete = sent.filter((c) => c.name === "CompleteMultipartUploadCommand" && c.input.Key === key);
      expect(create.length).toBe(1);
      expect(create[0].input.ChecksumAlgorithm).toBe("CRC32");
      expect(uploads.map((c) => [c.input.PartNumber, c.input.ChecksumAlgorithm, c.status])).toEqual([
        [1, "CRC32", 200],
        [2, "CRC32", 200],
        [3, "CRC32", 200],
      ]);
      expect(complete.length).toBe(1);
      const parts = (complete[0].input.MultipartUpload as { Parts: { PartNumber: number }[] }).Parts;
      expect(parts.map((p) => p.PartNumber)).toEqual([1, 2, 3]);
      expect(complete[0].status).toBe(200);
    },
    afterAbortedPut: async (key) => {
      // Every multipart upload started for the key was aborted, none completed. Check what was sent: s3rver 3.7.1
      // answers AbortMultipartUpload with 405 (not implemented) and cannot list open uploads.
      const created = sent.filter((c) => c.name === "CreateMultipartUploadCommand" && c.input.Key === key);
      const aborted = sent.filter((c) => c.name === "AbortMultipartUploadCommand" && c.input.Key === key);
      const completed = sent.filter((c) => c.name === "CompleteMultipartUploadCommand" && c.input.Key === key);
      expect(completed).toEqual([]);
      expect(aborted.length).toBe(created.length);
    },
    cleanup: async () => {
      storage["client"].destroy();
      await server.close();
      await fs.rm(directory, { recursive: true, force: true });
    },
  };
});
