import { Readable } from "node:stream";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { acceptUploads } from "@/lib/uploads/accept-uploads";
import { UPLOAD_LIMITS } from "@/lib/uploads/limits";
import { PLATFORMS, UploadSchema } from "@/lib/uploads/upload-schema";
import { dismissUpload, getUpload, listUploads, retryUpload } from "@/lib/uploads/uploads";
import { defineTool } from "../types";
import { idArg, pageArgs } from "./shared";

/**
 * Uploading over tools is for small files an agent already holds: base64 in the JSON
 * arguments, capped per file (the JSON body itself is capped at 1 MB). Larger files go
 * through POST /api/v1/uploads (multipart), the CLI or the client library.
 */
export const TOOL_UPLOAD_MAX_BYTES = 512 * 1024;
const TOOL_UPLOAD_MAX_FILES = 5;

const TAG = "Uploads";
const UploadRefSchema = z.object({ id: z.string(), status: z.literal("processing") });

/** Decodes base64 files and hands them to the same acceptor the REST route uses, so every check and the cleanup are shared. */
async function createUploadFromBase64(
  principal: Parameters<typeof acceptUploads>[0],
  input: { files: { fileName: string; contentBase64: string; contentType?: string }[]; platform?: string; folderId?: string },
) {
  const decoded = input.files.map((file, i) => {
    const bytes = Buffer.from(file.contentBase64, "base64");
    if (bytes.byteLength === 0) throw new AppError("invalid_input", `Invalid input: files.${i}.contentBase64: is empty or not base64`);
    if (bytes.byteLength > TOOL_UPLOAD_MAX_BYTES) {
      throw new AppError(
        "limit_exceeded",
        `files.${i}: ${bytes.byteLength} bytes is over the ${TOOL_UPLOAD_MAX_BYTES / 1024} KB cap of create_upload; upload larger files with POST /api/v1/uploads (multipart), the CLI or the client library`,
      );
    }
    return { fileName: file.fileName, declaredType: file.contentType ?? "application/octet-stream", stream: Readable.from([bytes], { objectMode: false }) };
  });
  const fields = { ...(input.platform ? { platform: input.platform } : {}), ...(input.folderId ? { folderId: input.folderId } : {}) };
  return acceptUploads(principal, { files: decoded, fields });
}

export const uploadTools = [
  defineTool({
    name: "list_uploads",
    title: "List uploads",
    description: "Lists upload jobs, newest first, with their status and platform ids. Paginated: pass nextCursor back as cursor.",
    category: "uploads",
    capability: "uploads.list",
    readOnly: true,
    destructive: false,
    input: z.strictObject({ ...pageArgs({ defaultLimit: 100, maxLimit: 200 }) }),
    output: z.object({ uploads: z.array(UploadSchema), nextCursor: z.string().nullable() }),
    handler: listUploads,
    rest: {
      method: "GET",
      path: "/api/v1/uploads",
      operationId: "listUploads",
      summary: "List uploads, newest first",
      description: "Cursor-paginated: pass a page's `nextCursor` back as `cursor` (null on the last page).",
      tag: TAG,
      status: 200,
      successDescription: "A page of uploads",
    },
  }),
  defineTool({
    name: "get_upload",
    title: "Get upload",
    description: "One upload job: status (processing, completed, failed), error, and the platform ids once completed.",
    category: "uploads",
    capability: "uploads.list",
    readOnly: true,
    destructive: false,
    input: z.strictObject({ id: idArg("Upload") }),
    output: z.object({ upload: UploadSchema }),
    handler: getUpload,
    rest: {
      method: "GET",
      path: "/api/v1/uploads/{id}",
      operationId: "getUpload",
      summary: "Fetch one upload",
      tag: TAG,
      args: { id: { path: "id" } },
      status: 200,
      successDescription: "The upload",
      errors: ["not_found"],
    },
  }),
  defineTool({
    name: "create_upload",
    title: "Upload small files",
    description: `Uploads up to ${TOOL_UPLOAD_MAX_FILES} small image or video files given as base64 (at most ${TOOL_UPLOAD_MAX_BYTES / 1024} KB each; larger files: POST /api/v1/uploads multipart, the CLI or the client library) and starts one job per file pushing it to the ad account. Poll get_upload until completed or failed.`,
    category: "uploads",
    capability: "uploads.create",
    readOnly: false,
    destructive: false,
    input: z.strictObject({
      files: z
        .array(
          z.strictObject({
            fileName: z.string().min(1).max(255).describe("File name, e.g. banner.png"),
            contentBase64: z.string().min(1).describe("The file's bytes, base64"),
            contentType: z.string().max(100).optional().describe("MIME type (image/* or video/*); the bytes decide in the end"),
          }),
        )
        .min(1)
        .max(TOOL_UPLOAD_MAX_FILES)
        .describe(`1 to ${TOOL_UPLOAD_MAX_FILES} files`),
      platform: z.enum(PLATFORMS).optional().describe("Ad platform to push to; default platform_a"),
      folderId: idArg("Library folder").optional().describe("Folder the resulting creatives are filed under"),
    }),
    output: z.object({ uploads: z.array(UploadRefSchema) }),
    handler: createUploadFromBase64,
    rest: {
      method: "POST",
      path: "/api/v1/uploads",
      operationId: "createUploads",
      summary: "Upload image and video files; each starts a job pushing it to the ad account",
      description:
        `Up to ${UPLOAD_LIMITS.maxFiles} files per request; images up to 30 MB and videos up to 200 MB each. ` +
        "Each part's content type must be image/* or video/* and match the file's bytes (JPEG, PNG, GIF, WebP, BMP, TIFF, AVIF; MP4, QuickTime, WebM, Matroska, AVI). " +
        "The body is streamed; a request that fails validation stores nothing.",
      tag: TAG,
      status: 201,
      successDescription: "One processing upload per file",
      multipartUpload: {
        schema: {
          type: "object",
          required: ["files"],
          properties: {
            files: {
              type: "array",
              items: { type: "string", format: "binary" },
              minItems: 1,
              maxItems: UPLOAD_LIMITS.maxFiles,
              description: "One part named files per file",
            },
            platform: { type: "string", enum: ["platform_a", "platform_b"], default: "platform_a", description: "The ad account the files are pushed to" },
            folderId: { type: "string", description: "Library folder the resulting creatives are filed under" },
            versionOf: {
              type: "string",
              description:
                "A creative id: the one file (of the creative's kind) becomes its next version once the upload completes; no new creative is made and nothing is pushed (not with folderId)",
            },
          },
        },
        run: acceptUploads,
      },
    },
  }),
  defineTool({
    name: "retry_upload",
    title: "Retry upload",
    description: "Runs a failed upload's job again (status back to processing). not_found unless the upload exists and has failed.",
    category: "uploads",
    capability: "uploads.retry",
    readOnly: false,
    destructive: false,
    input: z.strictObject({ id: idArg("Upload") }),
    output: z.object({ upload: UploadRefSchema }),
    handler: retryUpload,
    rest: {
      method: "POST",
      path: "/api/v1/uploads/{id}",
      operationId: "retryUpload",
      summary: "Retry a failed upload",
      description: "Runs the job again; a new upload.completed or upload.failed event is sent when it finishes. 404 unless the upload is failed.",
      tag: TAG,
      args: { id: { path: "id" } },
      status: 200,
      successDescription: "The upload is processing again",
      errors: ["not_found"],
    },
  }),
  defineTool({
    name: "dismiss_upload",
    title: "Dismiss upload",
    description: "Removes a finished (completed or failed) upload from the list; creatives it produced stay. conflict while it is still processing.",
    category: "uploads",
    capability: "uploads.dismiss",
    readOnly: false,
    destructive: false,
    input: z.strictObject({ id: idArg("Upload") }),
    output: z.object({ ok: z.literal(true) }),
    handler: dismissUpload,
    rest: {
      method: "DELETE",
      path: "/api/v1/uploads/{id}",
      operationId: "dismissUpload",
      summary: "Dismiss a finished upload",
      description: "Removes a completed or failed upload from the list; creatives it produced are unaffected. 409 while it is processing.",
      tag: TAG,
      args: { id: { path: "id" } },
      status: 200,
      successDescription: "Dismissed",
      errors: ["not_found", "conflict"],
    },
  }),
];
