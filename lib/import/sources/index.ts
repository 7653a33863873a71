import { open } from "@/lib/credentials/sealed";
import { AppError } from "@/lib/errors";
import { S3Source, type S3SourceSecrets, type S3SourceSettings } from "./s3";
import type { StorageSource } from "./types";
import { UrlSource } from "./url";

export type { SourceEntry, SourceFile, StorageSource } from "./types";

/** What sourceFor needs of a storage_connections row. */
export interface ConnectionRow {
  id: string;
  provider: "s3" | "url" | "dropbox" | "google_drive";
  status: "active" | "revoked";
  settings: unknown;
  credentialsCiphertext: string | null;
}

/** The provider client of an active connection; a revoked one answers not_connected. */
export function sourceFor(connection: ConnectionRow): StorageSource {
  if (connection.status !== "active") {
    throw new AppError("not_connected", `Storage connection ${connection.id} is disconnected: connect it again (connect_storage)`);
  }
  switch (connection.provider) {
    case "s3":
      return new S3Source(connection.settings as S3SourceSettings, secretsOf<S3SourceSecrets>(connection));
    case "url":
      return new UrlSource();
    default:
      throw new AppError("not_connected", `Storage connection ${connection.id}: ${connection.provider} is not available in this version`);
  }
}

function secretsOf<T>(connection: ConnectionRow): T {
  if (!connection.credentialsCiphertext) throw new AppError("not_connected", `Storage connection ${connection.id} has no stored credentials: connect it again`);
  return JSON.parse(open(connection.credentialsCiphertext, connection.id).plaintext) as T;
}
