import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import readline from "node:readline";
import { PutObjectCommand, S3Client } from "@aws-sdk/client-s3";

/** The S3 fake (s3rver) in a child process of its own, so its CPU is its own and is measured apart. */
export interface S3FakeProcess {
  pid: number;
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  client: S3Client;
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  close(): Promise<void>;
}

export async function startS3FakeProcess(bucket: string): Promise<S3FakeProcess> {
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", path.join(import.meta.dirname, "s3-fake-child.ts"), bucket], {
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...process.env, NODE_OPTIONS: "" },
  });
  const line = await new Promise<string>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`the S3 fake exited (${code}) before listening`)));
    readline.createInterface({ input: child.stdout! }).once("line", resolve);
  });
  child.removeAllListeners("exit");
  const { endpoint } = JSON.parse(line) as { endpoint: string };
  // s3rver's one account.
  const credentials = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };
  // Built as lib/import/sources/s3.ts builds its client, so the baseline reads the way the import does.
  const client = new S3Client({ region: "us-east-1", endpoint, forcePathStyle: true, credentials, maxAttempts: 2 });
  return {
    pid: child.pid!,
    endpoint,
    bucket,
    ...credentials,
    client,
    put: async (key, body, contentType) => {
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ContentType: contentType }));
    },
    close: async () => {
      client.destroy();
      if (child.exitCode !== null) return;
      await new Promise<void>((resolve) => {
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      });
    },
  };
}
