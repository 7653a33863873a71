import { z } from "zod";
import { defineOperation } from "@/lib/http/operation";
import { describeBytes, UPLOAD_LIMITS } from "@/lib/uploads/limits";
import { handleResumableUpload, RESUMABLE_UPLOADS_PATH } from "@/lib/uploads/resumable-uploads";

const TAG = "Uploads";
const params = z.object({
  id: z.string().min(1).max(100).describe("The resumable upload's id (the last segment of its Location), also the upload's id once complete"),
});
const TUS_HEADER = { "Tus-Resumable": "Protocol version: `1.0.0` (required)" };
const NO_VERSION = { "412": "`invalid_request`: the Tus-Resumable: 1.0.0 header is missing" };
const EXPIRED = { "410": "`not_found`: the upload expired and its partial file was removed; start a new one" };
const ACCESS = "Also answers the dashboard's session. Another workspace's upload answers 404, as an unknown one does.";

/**
 * Resumable uploads over the tus 1.0.0 protocol (https://tus.io/protocols/resumable-upload): REST-only
 * operations (not tools: their bodies are raw bytes sent in pieces), answered by lib/uploads/resumable-uploads.ts.
 */
export const resumableUploadOperations = [
  defineOperation({
    method: "POST",
    path: RESUMABLE_UPLOADS_PATH,
    operationId: "createResumableUpload",
    summary: "Start a resumable (tus) upload of one file",
    description:
      "tus `creation`: declare the file's size in `Upload-Length` and its name and type in `Upload-Metadata` " +
      "(`filename` and `filetype`, base64 values as tus specifies; optional `platform` and `folderId` as for POST /api/v1/uploads). " +
      `The same limits apply: images up to ${describeBytes(UPLOAD_LIMITS.maxBytes.image)}, videos up to ${describeBytes(UPLOAD_LIMITS.maxBytes.video)}, image/* or video/* only. ` +
      "Answers 201 with `Location` (the upload's URL, relative) and `Upload-Expires`; then PATCH the bytes there. " +
      "When the last byte arrives the file is checked and recorded as one upload job, exactly as POST /api/v1/uploads does, " +
      "and the final PATCH answers 200 with `{ uploads: [{ id, status }] }`. " +
      ACCESS,
    tag: TAG,
    capability: "uploads.create",
    allowSession: true,
    errors: ["limit_exceeded"],
    otherAnswers: {
      headers: {
        ...TUS_HEADER,
        "Upload-Length": "The file's size in bytes (required)",
        "Upload-Metadata": "Comma-separated `key base64value` pairs: `filename` and `filetype` (required), `platform`, `folderId`",
      },
      errorStatuses: { ...NO_VERSION, "413": "`limit_exceeded`: Upload-Length is over the largest file accepted (200 MB)" },
    },
    success: { status: 201, description: "Created: `Location` names the upload's URL; `Upload-Offset` is 0" },
    handler: ({ request, principal }) => handleResumableUpload(request, principal),
  }),
  defineOperation({
    method: "HEAD",
    path: `${RESUMABLE_UPLOADS_PATH}/{id}`,
    operationId: "getResumableUploadOffset",
    summary: "Read how much of a resumable upload the server has (to resume from there)",
    description:
      "Answers `Upload-Offset` (bytes received) and `Upload-Length`. An upload that has completed answers its full length. " +
      "404 unknown, 410 expired (its partial file was removed after RESUMABLE_UPLOAD_EXPIRY_SECONDS). " +
      ACCESS,
    tag: TAG,
    capability: "uploads.create",
    allowSession: true,
    params,
    errors: ["not_found"],
    otherAnswers: { headers: TUS_HEADER, errorStatuses: { ...NO_VERSION, ...EXPIRED } },
    success: { status: 200, description: "`Upload-Offset` and `Upload-Length` headers; no body" },
    handler: ({ request, principal, params }) => handleResumableUpload(request, principal, params.id),
  }),
  defineOperation({
    method: "PATCH",
    path: `${RESUMABLE_UPLOADS_PATH}/{id}`,
    operationId: "appendResumableUpload",
    summary: "Send the next bytes of a resumable upload",
    description:
      "Body: the bytes from `Upload-Offset` on (`Content-Type: application/offset+octet-stream`), streamed to disk as they arrive. " +
      "A connection cut mid-body keeps what arrived: HEAD reads the new offset and the next PATCH continues from it. " +
      "409 when `Upload-Offset` is not the upload's current offset, or the upload is already complete. Answers 204 with the new `Upload-Offset`, or on the last byte " +
      "200 with the upload job (as POST /api/v1/uploads answers; a file whose bytes fail the checks answers 400 and is dropped). " +
      ACCESS,
    tag: TAG,
    capability: "uploads.create",
    allowSession: true,
    params,
    errors: ["not_found", "limit_exceeded"],
    streamedBody: { contentType: "application/offset+octet-stream", schema: { type: "string", format: "binary" } },
    otherAnswers: {
      empty: { "204": "Bytes stored; `Upload-Offset` is the new offset" },
      headers: { ...TUS_HEADER, "Upload-Offset": "Where these bytes start (required): the offset HEAD reported" },
      errorStatuses: {
        ...NO_VERSION,
        ...EXPIRED,
        "413": "`limit_exceeded`: the bytes go past the upload's declared length",
        "415": "`invalid_request`: Content-Type must be application/offset+octet-stream",
      },
    },
    success: {
      status: 200,
      description: "The last byte arrived: one processing upload, as POST /api/v1/uploads answers",
      schema: z.object({ uploads: z.array(z.object({ id: z.string(), status: z.literal("processing") })) }),
    },
    handler: ({ request, principal, params }) => handleResumableUpload(request, principal, params.id),
  }),
  defineOperation({
    method: "DELETE",
    path: `${RESUMABLE_UPLOADS_PATH}/{id}`,
    operationId: "abandonResumableUpload",
    summary: "Abandon an unfinished resumable upload (tus termination)",
    description: "Removes the partial file. Nothing was recorded for it, so nothing else changes. " + ACCESS,
    tag: TAG,
    capability: "uploads.create",
    allowSession: true,
    params,
    errors: ["not_found"],
    otherAnswers: { headers: TUS_HEADER, errorStatuses: { ...NO_VERSION, ...EXPIRED } },
    success: { status: 204, description: "Removed" },
    handler: ({ request, principal, params }) => handleResumableUpload(request, principal, params.id),
  }),
];
