import type { Principal } from "@/lib/auth/principal";
import { seal } from "@/lib/credentials/sealed";
import { getDb } from "@/lib/db/client";
import { AppError, notFound } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { resolveDeliverableUrl, WebhookUrlError } from "@/lib/webhooks/url-policy";
import { type ConnectionRow, sourceFor } from "./sources";
import type { S3SourceSettings } from "./sources/s3";
import { importUrlPolicy } from "./sources/url";

export interface ConnectStorageInput {
  provider: "s3" | "url";
  name?: string;
  bucket?: string;
  region?: string;
  endpoint?: string;
  forcePathStyle?: boolean;
  accessKeyId?: string;
  secretAccessKey?: string;
}

export interface StorageConnectionView {
  id: string;
  provider: "s3" | "url" | "dropbox" | "google_drive";
  name: string;
  status: "active" | "revoked";
  statusReason: string | null;
  /** What is not secret: bucket, endpoint, region. */
  settings: Record<string, unknown>;
  createdAt: string;
  revokedAt: string | null;
}

type Row = ConnectionRow & { workspaceId: string; name: string; statusReason: string | null; createdAt: Date; revokedAt: Date | null };

export function toConnectionView(row: Row): StorageConnectionView {
  return {
    id: row.id,
    provider: row.provider,
    name: row.name,
    status: row.status,
    statusReason: row.statusReason,
    settings: (row.settings ?? {}) as Record<string, unknown>,
    createdAt: row.createdAt.toISOString(),
    revokedAt: row.revokedAt?.toISOString() ?? null,
  };
}

/**
 * Connects a storage provider: checks the credentials reach it (a bucket is listed once), then
 * stores the secrets sealed with the row's id. An S3 endpoint must pass the webhook URL policy
 * (public HTTPS), so a connection cannot point the server at its own network.
 */
export async function connectStorage(principal: Principal, input: ConnectStorageInput): Promise<{ connection: StorageConnectionView }> {
  const id = newId("stc");
  let settings: Record<string, string | boolean | null> = {};
  let secrets: string | null = null;
  let name: string;
  if (input.provider === "s3") {
    const missing = (["bucket", "accessKeyId", "secretAccessKey"] as const).filter((k) => !input[k]);
    if (missing.length) throw new AppError("invalid_input", `Invalid input: ${missing.join(", ")} required for an s3 connection`);
    if (input.endpoint) await checkEndpoint(input.endpoint);
    const s3: S3SourceSettings = {
      bucket: input.bucket!,
      region: input.region ?? "us-east-1",
      endpoint: input.endpoint ?? null,
      forcePathStyle: input.forcePathStyle ?? Boolean(input.endpoint),
    };
    settings = { ...s3 };
    secrets = JSON.stringify({ accessKeyId: input.accessKeyId, secretAccessKey: input.secretAccessKey });
    name = input.name ?? `s3://${input.bucket}`;
  } else {
    const extra = (["bucket", "region", "endpoint", "forcePathStyle", "accessKeyId", "secretAccessKey"] as const).filter((k) => input[k] !== undefined);
    if (extra.length) throw new AppError("invalid_input", `Invalid input: ${extra.join(", ")} not used by a url connection`);
    name = input.name ?? "Public URLs";
  }
  const row = {
    id,
    workspaceId: principal.workspaceId,
    provider: input.provider,
    name,
    settings,
    credentialsCiphertext: secrets === null ? null : seal(secrets, id),
    status: "active" as const,
    createdById: principal.userId,
  };
  await sourceFor(row).verify();
  const created = await getDb().storageConnection.create({ data: row });
  return { connection: toConnectionView(created as Row) };
}

export async function listStorageConnections(principal: Principal): Promise<{ connections: StorageConnectionView[] }> {
  const rows = await getDb().storageConnection.findMany({ where: { workspaceId: principal.workspaceId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
  return { connections: rows.map((r) => toConnectionView(r as Row)) };
}

/** Revokes the connection: its secrets are erased, it stays listed as revoked, and its watched folders stop syncing. */
export async function disconnectStorage(principal: Principal, input: { connectionId: string }): Promise<{ connection: StorageConnectionView }> {
  const db = getDb();
  const existing = await findConnection(principal, input.connectionId);
  const row =
    existing.status === "revoked"
      ? existing
      : await db.storageConnection.update({
          where: { id: existing.id },
          data: { status: "revoked", statusReason: "Disconnected by a member", credentialsCiphertext: null, revokedAt: new Date() },
        });
  return { connection: toConnectionView(row as Row) };
}

/** The workspace's connection by id (any status); not_found for another workspace's. */
export async function findConnection(principal: Pick<Principal, "workspaceId">, connectionId: string): Promise<Row> {
  const row = await getDb().storageConnection.findFirst({ where: { id: connectionId, workspaceId: principal.workspaceId } });
  if (!row) throw notFound("Storage connection");
  return row as Row;
}

async function checkEndpoint(endpoint: string): Promise<void> {
  try {
    await resolveDeliverableUrl(endpoint, importUrlPolicy());
  } catch (err) {
    if (err instanceof WebhookUrlError) throw new AppError("invalid_input", `endpoint: ${err.message.replace("webhooks go to", "storage endpoints are")}`);
    throw err;
  }
}
