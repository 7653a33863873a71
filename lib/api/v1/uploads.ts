import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { z } from "zod";
import { badRequest } from "@/lib/errors";
import { defineOperation } from "@/lib/http/operation";
import { pageQuery } from "@/lib/pagination/page-args";
import { acceptUploads } from "@/lib/uploads/accept-uploads";
import { UPLOAD_LIMITS } from "@/lib/uploads/limits";
import { UploadSchema } from "@/lib/uploads/upload-schema";
import { dismissUpload, getUpload, listUploads, retryUpload } from "@/lib/uploads/uploads";

const UploadIdParams = z.object({ id: z.string().min(1).max(100).describe("Upload id") });
const ProcessingUpload = z.object({ id: z.string(), status: z.literal("processing") });

export const listUploadsOperation = defineOperation({
  method: "GET",
  path: "/api/v1/uploads",
  operationId: "listUploads",
  summary: "List uploads, newest first",
  description: "Cursor-paginated: pass a page's `nextCursor` back as `cursor` (null on the last page).",
  tag: "Uploads",
  capability: "uploads.list",
  allowSession: true,
  query: pageQuery({ defaultLimit: 100, maxLimit: 200 }),
  success: {
    status: 200,
    description: "A page of uploads",
    schema: z.object({ uploads: z.array(UploadSchema), nextCursor: z.string().nullable() }),
  },
  handler: async ({ principal, query }) => ({ status: 200, body: await listUploads(principal, query) }),
});

export const createUploadsOperation = defineOperation({
  method: "POST",
  path: "/api/v1/uploads",
  operationId: "createUploads",
  summary: "Upload image and video files; each starts a job pushing it to the ad account",
  description:
    `Up to ${UPLOAD_LIMITS.maxFiles} files per request; images up to 30 MB and videos up to 200 MB each. ` +
    "Each part's content type must be image/* or video/* and match the file's bytes (JPEG, PNG, GIF, WebP, BMP, TIFF, AVIF; MP4, QuickTime, WebM, Matroska, AVI). " +
    "The body is streamed; a request that fails validation stores nothing.",
  tag: "Uploads",
  capability: "uploads.create",
  allowSession: true,
  streamedBody: {
    contentType: "multipart/form-data",
    schema: {
      type: "object",
      required: ["files"],
      properties: {
        files: { type: "array", items: { type: "string", format: "binary" }, minItems: 1, maxItems: UPLOAD_LIMITS.maxFiles, description: "One part named files per file" },
        platform: { type: "string", enum: ["platform_a", "platform_b"], default: "platform_a", description: "The ad account the files are pushed to" },
        folderId: { type: "string", description: "Library folder the resulting creatives are filed under" },
      },
    },
  },
  success: { status: 201, description: "One processing upload per file", schema: z.object({ uploads: z.array(ProcessingUpload) }) },
  handler: async ({ principal, request }) => {
    if (!request.body) throw badRequest("No files: send one or more parts named files");
    const body = Readable.fromWeb(request.body as unknown as NodeReadableStream<Uint8Array>);
    return { status: 201, body: await acceptUploads(principal, { body, contentType: request.headers.get("content-type") }) };
  },
});

export const getUploadOperation = defineOperation({
  method: "GET",
  path: "/api/v1/uploads/{id}",
  operationId: "getUpload",
  summary: "Fetch one upload",
  tag: "Uploads",
  capability: "uploads.list",
  allowSession: true,
  params: UploadIdParams,
  errors: ["not_found"],
  success: { status: 200, description: "The upload", schema: z.object({ upload: UploadSchema }) },
  handler: async ({ principal, params }) => ({ status: 200, body: await getUpload(principal, params) }),
});

export const retryUploadOperation = defineOperation({
  method: "POST",
  path: "/api/v1/uploads/{id}",
  operationId: "retryUpload",
  summary: "Retry a failed upload",
  description: "Runs the job again; a new upload.completed or upload.failed event is sent when it finishes. 404 unless the upload is failed.",
  tag: "Uploads",
  capability: "uploads.retry",
  allowSession: true,
  params: UploadIdParams,
  errors: ["not_found"],
  success: { status: 200, description: "The upload is processing again", schema: z.object({ upload: ProcessingUpload }) },
  handler: async ({ principal, params }) => ({ status: 200, body: await retryUpload(principal, params) }),
});

export const dismissUploadOperation = defineOperation({
  method: "DELETE",
  path: "/api/v1/uploads/{id}",
  operationId: "dismissUpload",
  summary: "Dismiss a finished upload",
  description: "Removes a completed or failed upload from the list; creatives it produced are unaffected. 409 while it is processing.",
  tag: "Uploads",
  capability: "uploads.dismiss",
  allowSession: true,
  params: UploadIdParams,
  errors: ["not_found", "conflict"],
  success: { status: 200, description: "Dismissed", schema: z.object({ ok: z.literal(true) }) },
  handler: async ({ principal, params }) => ({ status: 200, body: await dismissUpload(principal, params) }),
});
