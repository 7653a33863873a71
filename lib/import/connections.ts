import type { Principal } from "@/lib/auth/principal";
import { seal, UnreadableCredentials } from "@/lib/credentials/sealed";
import { getDb } from "@/lib/db/client";
import { AppError, notFound } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { log } from "@/lib/log";
import { getConfig } from "@/lib/services";
import { resolveDeliverableUrl, WebhookUrlError } from "@/lib/webhooks/url-policy";
import { type ConnectionRow, oauthAppFor, oauthSession, oauthSourceFor, sourceFor } from "./sources";
import { exchangeCode } from "./sources/oauth-session";
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

/**
 * Revokes the connection: its secrets are erased, it stays listed as revoked, and its watched
 * folders stop syncing. A Drive or Dropbox connection's tokens are revoked at the provider first;
 * if the provider does not confirm, the disconnect still happens here and the reason says so (and is logged).
 */
export async function disconnectStorage(principal: Principal, input: { connectionId: string }): Promise<{ connection: StorageConnectionView }> {
  const db = getDb();
  const existing = await findConnection(principal, input.connectionId);
  if (existing.status === "revoked") return { connection: toConnectionView(existing) };
  let statusReason = "Disconnected by a member";
  const failure = await revokeAtProvider(existing);
  if (failure) statusReason += `; ${failure}`;
  const row = await db.storageConnection.update({
    where: { id: existing.id },
    data: { status: "revoked", statusReason: statusReason.slice(0, 500), credentialsCiphertext: null, revokedAt: new Date() },
  });
  return { connection: toConnectionView(row as Row) };
}

/** Null when the provider revoked the tokens (or the connection has none there); else what went wrong, for the record. */
async function revokeAtProvider(connection: Row): Promise<string | null> {
  if (connection.provider !== "google_drive" && connection.provider !== "dropbox") return null;
  if (!connection.credentialsCiphertext) return null;
  try {
    await oauthSession(connection).revokeAtProvider();
    return null;
  } catch (err) {
    const message = err instanceof AppError || err instanceof UnreadableCredentials ? err.message : String(err);
    log.warn("storage connection disconnected, but the provider did not confirm revoking its tokens", {
      component: "import",
      connectionId: connection.id,
      provider: connection.provider,
      error: message,
    });
    return `the provider did not confirm revoking the app's access (${message}): remove the app in the account's connected apps`;
  }
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

export type OAuthStorageProvider = "google_drive" | "dropbox";

export const OAUTH_STORAGE_PROVIDERS: readonly OAuthStorageProvider[] = ["google_drive", "dropbox"];

/**
 * The narrowest scopes that work: Drive's drive.file (only files the person picks in the Google
 * Picker, or the app makes); Dropbox's metadata and content read (an App folder app sees only its folder).
 */
export const OAUTH_SCOPES: Record<OAuthStorageProvider, string> = {
  google_drive: "https://www.googleapis.com/auth/drive.file",
  dropbox: "account_info.read files.metadata.read files.content.read",
};

/** Where the browser goes to authorize the operator's app; null when the app is not configured. */
export function storageAuthorizeUrl(provider: OAuthStorageProvider, options: { state: string; redirectUri: string }): string | null {
  const app = oauthAppFor(provider);
  if (!app) return null;
  const { googleDrive, dropbox } = getConfig().storageProviders;
  const url = new URL(provider === "google_drive" ? googleDrive.authorizeUrl : dropbox.authorizeUrl);
  url.searchParams.set("client_id", app.clientId);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("redirect_uri", options.redirectUri);
  url.searchParams.set("state", options.state);
  url.searchParams.set("scope", OAUTH_SCOPES[provider]);
  if (provider === "google_drive") {
    // A refresh token, so watched folders sync while nobody is signed in.
    url.searchParams.set("access_type", "offline");
    url.searchParams.set("prompt", "consent");
  } else {
    url.searchParams.set("token_access_type", "offline");
  }
  return url.toString();
}

/** The OAuth callback's second half: the code for tokens, the account for a name, one sealed connection. */
export async function connectOAuthStorage(
  principal: Pick<Principal, "workspaceId" | "userId">,
  provider: OAuthStorageProvider,
  options: { code: string; redirectUri: string },
): Promise<{ connection: StorageConnectionView }> {
  const app = oauthAppFor(provider);
  if (!app) throw new AppError("not_connected", `${provider} is not configured on this server`);
  const { raw, ...secrets } = await exchangeCode(app, options.code, options.redirectUri);
  const id = newId("stc");
  const account = await oauthSourceFor(provider, id, secrets).account();
  const who = account.emailAddress ?? account.displayName ?? (typeof raw.account_id === "string" ? raw.account_id : "account");
  const created = await getDb().storageConnection.create({
    data: {
      id,
      workspaceId: principal.workspaceId,
      provider,
      name: `${app.label} (${who})`,
      settings: { account: who, scope: typeof raw.scope === "string" ? raw.scope : OAUTH_SCOPES[provider] },
      credentialsCiphertext: seal(JSON.stringify(secrets), id),
      status: "active",
      createdById: principal.userId,
    },
  });
  return { connection: toConnectionView(created as Row) };
}

/** Which OAuth providers the operator configured (the Import page offers only those), and the Drive Picker's browser keys. */
export function oauthStorageSetup(): { google_drive: boolean; dropbox: boolean; picker: { apiKey: string; appId: string | null } | null } {
  const { googleDrive } = getConfig().storageProviders;
  return {
    google_drive: oauthAppFor("google_drive") !== null,
    dropbox: oauthAppFor("dropbox") !== null,
    picker: oauthAppFor("google_drive") && googleDrive.pickerApiKey ? { apiKey: googleDrive.pickerApiKey, appId: googleDrive.appId ?? null } : null,
  };
}

/**
 * What the Google Picker needs in the browser for one Drive connection: a current access token
 * (drive.file: the Picker is how files become visible to the app), the browser API key and the
 * project number. Dashboard only; not a tool, so no API key or MCP client ever receives a token.
 */
export async function drivePickerSession(
  principal: Pick<Principal, "workspaceId">,
  connectionId: string,
): Promise<{ accessToken: string; apiKey: string; appId: string | null }> {
  const setup = oauthStorageSetup().picker;
  if (!setup) throw new AppError("not_connected", "The Google Picker is not set up on this server (GOOGLE_DRIVE_PICKER_API_KEY)");
  const connection = await findConnection(principal, connectionId);
  if (connection.provider !== "google_drive") throw new AppError("invalid_input", `Storage connection ${connectionId} is not a Google Drive connection`);
  sourceFor(connection); // a revoked connection answers not_connected
  return { accessToken: await oauthSession(connection).accessToken(), ...setup };
}
