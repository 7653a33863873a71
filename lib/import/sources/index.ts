import { open, seal, UnreadableCredentials } from "@/lib/credentials/sealed";
import { getDb } from "@/lib/db/client";
import { log } from "@/lib/log";
import { AppError } from "@/lib/errors";
import { defineService, getConfig } from "@/lib/services";
import { DropboxSource } from "./dropbox";
import { GoogleDriveSource } from "./google-drive";
import { type OAuthApp, type OAuthSecrets, OAuthSession } from "./oauth-session";
import { S3Source, type S3SourceSecrets, type S3SourceSettings } from "./s3";
import type { StorageSource } from "./types";
import { importUrlPolicy, UrlSource } from "./url";

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
      return s3SourceOf(connection);
    case "url":
      return new UrlSource();
    case "google_drive":
      return new GoogleDriveSource(getConfig().storageProviders.googleDrive.apiUrl, oauthSession(connection));
    case "dropbox": {
      const { apiUrl, contentUrl } = getConfig().storageProviders.dropbox;
      return new DropboxSource(apiUrl, contentUrl, oauthSession(connection));
    }
  }
}

/** S3 clients kept per connection: each keeps its connections to the endpoint open between files. */
const MAX_KEPT_S3_SOURCES = 32;
const keptS3Sources = defineService(
  "import.s3-sources",
  () => new Map<string, S3Source>(),
  (kept) => {
    for (const source of kept.values()) source.close();
  },
);

/**
 * One S3 source per connection and credentials, reused by every file of its imports (a client per
 * file opened a new connection to the endpoint for each). New credentials or settings make a new
 * one. A source let go is not closed, as a transfer may still be reading through it: the endpoint
 * closes its idle connections.
 */
function s3SourceOf(connection: ConnectionRow): S3Source {
  const key = `${connection.id}\n${connection.credentialsCiphertext ?? ""}\n${JSON.stringify(connection.settings)}`;
  const kept = keptS3Sources();
  let source = kept.get(key);
  if (source)
    kept.delete(key); // re-inserted below: the map's order is least recently used first
  else {
    for (const keptKey of kept.keys()) if (keptKey.startsWith(`${connection.id}\n`)) kept.delete(keptKey);
    const oldest = kept.keys().next();
    if (kept.size >= MAX_KEPT_S3_SOURCES && !oldest.done) kept.delete(oldest.value);
    source = new S3Source(connection.settings as S3SourceSettings, secretsOf<S3SourceSecrets>(connection), importUrlPolicy());
  }
  kept.set(key, source);
  return source;
}

/** The operator's OAuth app for a provider, or null when it is not configured. */
export function oauthAppFor(provider: "google_drive" | "dropbox"): OAuthApp | null {
  const { googleDrive, dropbox } = getConfig().storageProviders;
  if (provider === "google_drive") {
    return googleDrive.clientId && googleDrive.clientSecret
      ? {
          label: "Google Drive",
          tokenUrl: googleDrive.tokenUrl,
          revoke: { kind: "google", url: googleDrive.revokeUrl },
          clientId: googleDrive.clientId,
          clientSecret: googleDrive.clientSecret,
        }
      : null;
  }
  return dropbox.appKey && dropbox.appSecret
    ? {
        label: "Dropbox",
        tokenUrl: `${dropbox.apiUrl}/oauth2/token`,
        revoke: { kind: "dropbox", url: `${dropbox.apiUrl}/2/auth/token/revoke` },
        clientId: dropbox.appKey,
        clientSecret: dropbox.appSecret,
      }
    : null;
}

/** The provider client for tokens just obtained (before the connection row exists). */
export function oauthSourceFor(provider: "google_drive" | "dropbox", connectionId: string, secrets: OAuthSecrets): GoogleDriveSource | DropboxSource {
  const session = new OAuthSession(connectionId, secrets, oauthAppFor(provider));
  if (provider === "google_drive") return new GoogleDriveSource(getConfig().storageProviders.googleDrive.apiUrl, session);
  const { apiUrl, contentUrl } = getConfig().storageProviders.dropbox;
  return new DropboxSource(apiUrl, contentUrl, session);
}

export function oauthSession(connection: ConnectionRow): OAuthSession {
  return new OAuthSession(connection.id, secretsOf<OAuthSecrets>(connection), oauthAppFor(connection.provider as "google_drive" | "dropbox"));
}

function secretsOf<T>(connection: ConnectionRow): T {
  const sealed = connection.credentialsCiphertext;
  if (!sealed) throw new AppError("not_connected", `Storage connection ${connection.id} has no stored credentials: connect it again`);
  let opened: { plaintext: string; stale: boolean };
  try {
    opened = open(sealed, connection.id);
  } catch (err) {
    if (!(err instanceof UnreadableCredentials)) throw err;
    throw new AppError("not_connected", `Storage connection ${connection.id}: ${err.message}. Connect it again, or restore the key.`);
  }
  // Sealed by a previous CREDENTIALS_KEY: seal it with the current one on the way (only if unchanged meanwhile).
  if (opened.stale) {
    getDb()
      .storageConnection.updateMany({
        where: { id: connection.id, credentialsCiphertext: sealed },
        data: { credentialsCiphertext: seal(opened.plaintext, connection.id) },
      })
      .catch((err) => log.warn("could not reseal a storage connection's credentials", { component: "import", connectionId: connection.id, err }));
  }
  return JSON.parse(opened.plaintext) as T;
}
