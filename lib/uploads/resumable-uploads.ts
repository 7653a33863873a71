import { createReadStream } from "node:fs";
import { FileStore } from "@tus/file-store";
import { Server, type Upload as TusUpload } from "@tus/server";
import type { Principal } from "@/lib/auth/principal";
import { getDb } from "@/lib/db/client";
import { AppError, badRequest, isAppError, notFound, type ErrorCode } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { log } from "@/lib/log";
import { normalizeContentType } from "@/lib/platforms/media-signature";
import { defineService, getConfig } from "@/lib/services";
import {
  acceptUploads,
  folderDeletedWhileUploading,
  parsePlatform,
  requireMediaKind,
  requireUsableFolder,
  requireVersionTarget,
  type AcceptedUploads,
} from "./accept-uploads";
import { safeFileName } from "./file-name";
import { describeBytes, UPLOAD_LIMITS } from "./limits";

/** Where the tus endpoints live; an upload's URL is this path plus its id. */
export const RESUMABLE_UPLOADS_PATH = "/api/v1/uploads/tus";
/** The protocol version we speak (tus 1.0.0). */
export const TUS_VERSION = "1.0.0";

/** Upload-Metadata keys a client sends (tus-js-client's convention for the first two). */
const META = {
  fileName: "filename",
  fileType: "filetype",
  platform: "platform",
  folderId: "folderId",
  versionOf: "versionOf",
  workspaceId: "workspaceId",
} as const;

/** Which principal a request (as handed to the tus hooks) was authenticated as. */
const principals = new WeakMap<Request, Principal>();

/**
 * The tus server over a FileStore under DATA_DIR/tus. Each resumable upload's id is the id its
 * upload record gets when it completes (`upl_...`), so a client that lost the final answer still
 * knows which upload it made; the partial bytes never enter media storage or the database.
 */
const getTusServer = defineService("resumable-uploads", ({ config }) => {
  const datastore = new FileStore({ directory: config.resumableUploads.dir, expirationPeriodInMilliseconds: config.resumableUploads.expiryMs });
  return new Server({
    path: RESUMABLE_UPLOADS_PATH,
    datastore,
    relativeLocation: true,
    maxSize: Math.max(...Object.values(UPLOAD_LIMITS.maxBytes)),
    namingFunction: () => newId("upl"),
    // The API's CORS headers come from next.config.js (any origin with a Bearer key, never credentials).
    allowedOrigins: () => false,
    onUploadCreate: async (req, upload) => ({ metadata: await checkNewUpload(principalOf(req), upload) }),
    onIncomingRequest: async (req, id) => {
      await requireOwnUpload(principalOf(req), datastore, id);
    },
    onUploadFinish: async (req, upload) => {
      const result = await finishResumableUpload(principalOf(req), upload);
      return { status_code: 200, headers: { "Content-Type": "application/json; charset=utf-8" }, body: JSON.stringify(result) };
    },
    onResponseError: (_req, err) => (isAppError(err) ? { status_code: err.status, body: JSON.stringify(err.toBody()) } : undefined),
  });
});

function principalOf(req: Request): Principal {
  const principal = principals.get(req);
  if (!principal) throw new AppError("unauthorized", "The resumable upload request was not authenticated");
  return principal;
}

/**
 * Answers one tus request (POST creates, HEAD reports the offset, PATCH appends, DELETE abandons)
 * for an authenticated principal. Every error answer carries the API's envelope; the status is the
 * one the tus protocol prescribes (404/410 unknown or expired, 409 wrong offset, 413 too large).
 */
export async function handleResumableUpload(request: Request, principal: Principal, uploadId?: string): Promise<Response> {
  if (uploadId && request.method !== "POST") {
    const finished = await finishedUploadHead(principal, uploadId);
    if (finished && request.method === "HEAD") return finished;
    if (finished) {
      return errorResponse(
        409,
        "conflict",
        `This resumable upload is complete: it is upload ${uploadId} (GET /api/v1/uploads/${uploadId}); nothing more can be sent to it`,
      );
    }
  }
  const tusRequest = new Request(request.url, {
    method: request.method,
    headers: request.headers,
    body: request.method === "PATCH" || request.method === "POST" ? request.body : null,
    duplex: "half",
    signal: request.signal,
  } as RequestInit);
  principals.set(tusRequest, principal);
  if (request.method === "POST") sweepExpiredUploads();
  let response = await getTusServer().handleWeb(tusRequest);
  if (request.method === "HEAD" && uploadId && response.status === 200) response = await finishIfComplete(principal, uploadId, response);
  return withErrorEnvelope(response);
}

/** Checks a new upload's declared length, name, type, platform and folder; returns its metadata with the owner added. */
async function checkNewUpload(principal: Principal, upload: TusUpload): Promise<Record<string, string | null>> {
  const metadata = upload.metadata ?? {};
  if (upload.size === undefined)
    throw badRequest("Upload-Length is required: resumable uploads must declare their size (Upload-Defer-Length is not supported)");
  const fileName = safeFileName(metadata[META.fileName] ?? "");
  if (!metadata[META.fileName]) throw badRequest("Upload-Metadata must name the file: send filename <base64 name>");
  const declaredType = normalizeContentType(metadata[META.fileType] ?? "");
  const kind = requireMediaKind(fileName, declaredType);
  const limit = UPLOAD_LIMITS.maxBytes[kind];
  if (upload.size > limit) throw badRequest(`File "${fileName}" exceeds the ${describeBytes(limit)} limit for ${kind}s`);
  if (upload.size === 0) throw badRequest(`File "${fileName}" is empty`);
  const platform = metadata[META.platform];
  if (platform !== undefined && platform !== null) parsePlatform(platform);
  const folderId = metadata[META.folderId];
  const versionOf = metadata[META.versionOf];
  if (versionOf !== undefined && versionOf !== null) {
    if (folderId !== undefined && folderId !== null) throw badRequest("Give folderId or versionOf, not both: a new version stays in its creative's folder");
    const target = await requireVersionTarget(principal, versionOf);
    if (target.kind !== kind) throw badRequest(`The new file is ${kind === "image" ? "an image" : "a video"}; this creative's versions are ${target.kind}s`);
  } else if (folderId !== undefined && folderId !== null) await requireUsableFolder(principal, folderId);
  else if (principal.folderIds) throw badRequest("folderId is required: your access is limited to specific folders");
  // Set by us, whatever the client sent: the workspace that may resume, and later finish, the upload.
  return { ...metadata, [META.workspaceId]: principal.workspaceId };
}

/** Another workspace's upload answers exactly as an unknown one does. */
async function requireOwnUpload(principal: Principal, datastore: FileStore, id: string): Promise<void> {
  const info = await datastore.configstore.get(id).catch(() => undefined);
  if (info && info.metadata?.[META.workspaceId] !== principal.workspaceId) throw notFound("Resumable upload");
}

/** Finishes run once per upload in this process: the last PATCH and a HEAD after a lost answer may race. */
const finishing = new Map<string, Promise<AcceptedUploads>>();

/**
 * Turns a complete tus upload into an upload job exactly as POST /api/v1/uploads does (streamed
 * from the staged file through the same type and size checks into media storage, one record, one
 * upload/requested event), then drops the staged file. Idempotent: an upload already recorded is
 * answered as such. A file the checks refuse is dropped, so nothing half-made stays behind.
 */
export function finishResumableUpload(principal: Principal, upload: TusUpload): Promise<AcceptedUploads> {
  const running = finishing.get(upload.id);
  if (running) return running;
  const run = (async () => {
    const existing = await getDb().upload.findFirst({ where: { id: upload.id, workspaceId: principal.workspaceId }, select: { id: true } });
    if (existing) return { uploads: [{ id: upload.id, status: "processing" as const }] };
    const metadata = upload.metadata ?? {};
    const path = upload.storage?.path;
    if (!path) throw new AppError("internal_error", "The resumable upload's staged file is missing");
    let result: AcceptedUploads;
    try {
      // The folder was checked when the upload was created; one deleted since (it was empty then) files it at the
      // library root, as a multipart upload whose folder goes while it streams (a folder-scoped member's is refused).
      const folderId = metadata[META.folderId] || undefined;
      const folderGone = folderId !== undefined && !(await getDb().folder.findFirst({ where: { id: folderId, workspaceId: principal.workspaceId } }));
      if (folderGone && principal.folderIds) throw folderDeletedWhileUploading(folderId);
      result = await acceptUploads(principal, {
        files: [{ id: upload.id, fileName: metadata[META.fileName] ?? "", declaredType: metadata[META.fileType] ?? "", stream: createReadStream(path) }],
        fields: {
          ...(metadata[META.platform] ? { platform: metadata[META.platform]! } : {}),
          ...(folderId && !folderGone ? { folderId } : {}),
          ...(metadata[META.versionOf] ? { versionOf: metadata[META.versionOf]! } : {}),
        },
      });
    } catch (err) {
      if (isAppError(err) && err.status < 500) await removeStaged(upload.id);
      throw err;
    }
    await removeStaged(upload.id);
    return result;
  })();
  finishing.set(upload.id, run);
  return run.finally(() => finishing.delete(upload.id));
}

async function removeStaged(id: string): Promise<void> {
  try {
    await getTusServer().datastore.remove(id);
  } catch (err) {
    // Left for the expiry sweep: the upload record (or the refusal) is what counts.
    log.warn("could not remove a staged resumable upload", { component: "uploads", id, err });
  }
}

/** HEAD of an upload that has already become an upload record: complete, at its full length. */
async function finishedUploadHead(principal: Principal, id: string): Promise<Response | null> {
  const row = await getDb().upload.findFirst({ where: { id, workspaceId: principal.workspaceId }, select: { sizeBytes: true } });
  if (!row) return null;
  return new Response(null, {
    status: 200,
    headers: {
      "Tus-Resumable": TUS_VERSION,
      "Cache-Control": "no-store",
      "Upload-Offset": String(row.sizeBytes),
      "Upload-Length": String(row.sizeBytes),
    },
  });
}

/**
 * A HEAD that finds every byte received but no upload record (the server stopped between the last
 * PATCH and the record): finishes the upload now, so the client's resume completes it.
 */
async function finishIfComplete(principal: Principal, id: string, head: Response): Promise<Response> {
  const offset = head.headers.get("upload-offset");
  if (offset === null || offset !== head.headers.get("upload-length")) return head;
  try {
    const upload = await getTusServer().datastore.getUpload(id);
    await finishResumableUpload(principal, upload);
    return head;
  } catch (err) {
    if (isAppError(err)) return errorResponse(err.status, err.code, err.message);
    throw err;
  }
}

/** When this process last swept expired uploads (service state: a new registry starts over). */
const sweepState = defineService("resumable-uploads.sweep", () => ({ lastSweep: 0 }));

/** Removes expired unfinished uploads, at most once per expiry period (or minute), in the background. */
function sweepExpiredUploads(): void {
  const { expiryMs } = getConfig().resumableUploads;
  const now = Date.now();
  const state = sweepState();
  if (now - state.lastSweep < Math.min(expiryMs, 60_000)) return;
  state.lastSweep = now;
  getTusServer()
    .cleanUpExpiredUploads()
    .catch((err) => log.warn("could not remove expired resumable uploads", { component: "uploads", err }));
}

const CODE_OF_STATUS: Record<number, ErrorCode> = {
  401: "unauthorized",
  403: "forbidden",
  404: "not_found",
  409: "conflict",
  410: "not_found",
  413: "limit_exceeded",
};

/** tus answers its own protocol errors in plain text; ours carry the API's envelope. */
async function withErrorEnvelope(response: Response): Promise<Response> {
  if (response.status < 400 || response.headers.get("content-type")?.includes("json")) return response;
  const text = (await response.text()).trim();
  if (text.startsWith('{"error"')) return rebuilt(response, text);
  const code = CODE_OF_STATUS[response.status] ?? (response.status >= 500 ? "internal_error" : "invalid_request");
  const message = describeTusError(response.status, text);
  return rebuilt(response, JSON.stringify({ error: { code, message } }));
}

function rebuilt(response: Response, body: string): Response {
  const headers = new Headers(response.headers);
  headers.set("Content-Type", "application/json; charset=utf-8");
  headers.delete("Content-Length");
  return new Response(body, { status: response.status, headers });
}

function errorResponse(status: number, code: ErrorCode, message: string): Response {
  return new Response(JSON.stringify({ error: { code, message } }), {
    status,
    headers: { "Content-Type": "application/json; charset=utf-8", "Tus-Resumable": TUS_VERSION },
  });
}

/** Clearer words for the protocol's errors a client meets most. */
function describeTusError(status: number, text: string): string {
  if (status === 404) return "Resumable upload not found: it does not exist in this workspace (or has completed and been dismissed)";
  if (status === 410) return "Resumable upload expired: its partial file was removed; start a new upload";
  if (status === 409 && /offset/i.test(text)) return "Upload-Offset does not match the upload's current offset: send HEAD to read it, then PATCH from there";
  if (status === 412) return "Tus-Resumable: 1.0.0 header required";
  if (status === 413)
    return `The upload is larger than the limit (${describeBytes(UPLOAD_LIMITS.maxBytes.video)} for videos, ${describeBytes(UPLOAD_LIMITS.maxBytes.image)} for images)`;
  return text || `Resumable upload request failed (${status})`;
}
