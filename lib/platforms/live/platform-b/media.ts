import { createHash } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";
import { PlatformError, type MediaKind, type MediaProcessing, type PushRequest } from "../../types";
import { storedMediaBytes } from "../../stored-media";
import { getData, id, pageInfo, postForm, postJson, refusalCode } from "./client";

/**
 * Media into the advertiser's creative library, in TikTok's phases, each its own function so an
 * async upload session can drive them one at a time (fields as TikTok's official SDK names them,
 * tiktok/tiktok-business-api-sdk FileApi; the chunk endpoints, absent there, as bububa/tiktok-business
 * model/file/{start,transfer,finish}_upload.go describe them):
 * - images: one multipart POST /file/image/ad/upload/ (UPLOAD_BY_FILE, image_signature = MD5) -> image_id;
 * - small videos: one POST /file/video/ad/upload/ (UPLOAD_BY_FILE, video_signature = MD5);
 * - large videos: /file/start/upload/ -> /file/transfer/upload/ per chunk (signature = the chunk's MD5,
 *   start_offset) -> /file/finish/upload/ (file_id) -> /file/video/ad/upload/ (UPLOAD_BY_FILE_ID);
 * - then /file/video/ad/info/ until the video is `displayable` -> video_id.
 * A video larger than MEDIA_CHUNK_BYTES is driven by lib/media-push through the session functions at the
 * end of this file (startTikTokSession / transferTikTokChunk / finishTikTokSession / tiktokMediaStatus),
 * which record each acknowledged chunk, so a push cut short resumes the same TikTok upload.
 */

/** Above this, videos go through the chunk upload (TikTok answers each chunk's range); /file/start/upload/ takes 20 MB and more. */
export const CHUNKED_VIDEO_THRESHOLD_BYTES = Number(process.env.PLATFORM_B_CHUNK_THRESHOLD_BYTES || 20 * 1024 * 1024);
const VIDEO_READY_TIMEOUT_MS = 120_000;

const md5 = (bytes: Buffer) => createHash("md5").update(bytes).digest("hex");

/** The library's file name: the upload id keeps it unique per advertiser (TikTok refuses duplicate video names). */
export function libraryFileName(request: Pick<PushRequest, "uploadId" | "fileName">): string {
  return `${request.uploadId}-${request.fileName}`.slice(0, 100);
}

function fileForm(fields: Record<string, string>, fileField: string, bytes: Buffer, fileName: string, contentType: string): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  form.set(fileField, new Blob([new Uint8Array(bytes)], { type: contentType }), fileName);
  return form;
}

export async function uploadImage(token: string, advertiserId: string, request: PushRequest): Promise<string> {
  const bytes = await storedMediaBytes(request.storageKey);
  const upload = postForm(
    token,
    "file/image/ad/upload/",
    fileForm(
      { advertiser_id: advertiserId, upload_type: "UPLOAD_BY_FILE", image_signature: md5(bytes), file_name: libraryFileName(request) },
      "image_file",
      bytes,
      request.fileName,
      request.contentType,
    ),
    z.object({ image_id: id }),
    "the image upload",
  );
  try {
    return (await upload).image_id;
  } catch (err) {
    // Names are unique per advertiser (40911 DUPLICATED_MATERIAL_NAME) and ours carries the upload id: an earlier
    // attempt whose answer was lost already put this image in the library.
    if (refusalCode(err) === DUPLICATED_MATERIAL_NAME) {
      const earlier = await findUploadedImage(token, advertiserId, libraryFileName(request), md5(bytes));
      if (earlier) return earlier;
    }
    throw err;
  }
}

/** TikTok's DUPLICATED_MATERIAL_NAME: an image or video of that name is already in the advertiser's library. */
const DUPLICATED_MATERIAL_NAME = 40911;

/**
 * The image of this name in the library, when its bytes are ours: /file/name/check/ names the material
 * using the name, /file/image/ad/search/ (by material id) its image id.
 */
async function findUploadedImage(token: string, advertiserId: string, fileName: string, signature: string): Promise<string | null> {
  const check = await getData(
    token,
    "file/name/check/",
    { advertiser_id: advertiserId, file_name: fileName, file_type: "IMAGE" },
    z.object({ duplicate: z.boolean().optional(), duplicate_template_id: id.nullish() }),
    "the file name check",
  );
  if (!check.duplicate || !check.duplicate_template_id) return null;
  const { list } = await getData(
    token,
    "file/image/ad/search/",
    { advertiser_id: advertiserId, filtering: { material_ids: [check.duplicate_template_id] }, page: 1, page_size: 20 },
    z.object({ list: z.array(z.object({ image_id: id, signature: z.string().nullish(), file_name: z.string().nullish() })) }),
    "the image search",
  );
  return list.find((i) => i.file_name === fileName && (!i.signature || i.signature === signature))?.image_id ?? null;
}

/** The video upload answers a list (one video per upload). */
const uploadedVideos = z.array(z.object({ video_id: id })).min(1);

export async function uploadSmallVideo(token: string, advertiserId: string, request: PushRequest): Promise<string> {
  const bytes = await storedMediaBytes(request.storageKey);
  const [video] = await postForm(
    token,
    "file/video/ad/upload/",
    fileForm(
      { advertiser_id: advertiserId, upload_type: "UPLOAD_BY_FILE", video_signature: md5(bytes), file_name: libraryFileName(request) },
      "video_file",
      bytes,
      request.fileName,
      request.contentType,
    ),
    uploadedVideos,
    "the video upload",
  );
  return video!.video_id;
}

export interface ChunkSession {
  uploadId: string;
  /** The range TikTok asks for next: [startOffset, endOffset). Equal offsets: every byte is in. */
  startOffset: number;
  endOffset: number;
}

export async function startChunkUpload(token: string, advertiserId: string, request: PushRequest): Promise<ChunkSession> {
  const data = await postJson(
    token,
    "file/start/upload/",
    { advertiser_id: advertiserId, size: request.sizeBytes, content_type: "video", name: libraryFileName(request) },
    z.object({ upload_id: id, start_offset: z.coerce.number(), end_offset: z.coerce.number() }),
    "the chunk upload start",
  );
  return { uploadId: data.upload_id, startOffset: data.start_offset, endOffset: data.end_offset };
}

/** Sends the chunk TikTok asked for; answers the next range it wants. */
export async function transferChunk(token: string, advertiserId: string, request: PushRequest, session: ChunkSession): Promise<ChunkSession> {
  const end = Math.min(session.endOffset, request.sizeBytes);
  const bytes = await storedMediaBytes(request.storageKey, { start: session.startOffset, end });
  const data = await postForm(
    token,
    "file/transfer/upload/",
    fileForm(
      { advertiser_id: advertiserId, upload_id: session.uploadId, signature: md5(bytes), start_offset: String(session.startOffset) },
      "file",
      bytes,
      request.fileName,
      request.contentType,
    ),
    z.object({ start_offset: z.coerce.number(), end_offset: z.coerce.number() }),
    "a chunk transfer",
  );
  return { uploadId: session.uploadId, startOffset: data.start_offset, endOffset: data.end_offset };
}

export async function finishChunkUpload(token: string, advertiserId: string, session: ChunkSession): Promise<string> {
  const data = await postJson(
    token,
    "file/finish/upload/",
    { advertiser_id: advertiserId, upload_id: session.uploadId },
    z.object({ file_id: id }),
    "the chunk upload finish",
  );
  return data.file_id;
}

/** Moves the finished file from the file repository into the creative library. */
export async function bindVideoFile(token: string, advertiserId: string, fileId: string, request: Pick<PushRequest, "uploadId" | "fileName">): Promise<string> {
  const form = new FormData();
  form.set("advertiser_id", advertiserId);
  form.set("upload_type", "UPLOAD_BY_FILE_ID");
  form.set("file_id", fileId);
  form.set("file_name", libraryFileName(request));
  const [video] = await postForm(token, "file/video/ad/upload/", form, uploadedVideos, "the video upload from the file repository");
  return video!.video_id;
}

export async function uploadChunkedVideo(token: string, advertiserId: string, request: PushRequest): Promise<string> {
  let session = await startChunkUpload(token, advertiserId, request);
  for (let guard = 0; session.startOffset < session.endOffset; guard++) {
    if (guard > 10_000) throw new PlatformError("upstream_error", "platform_b never finished asking for chunks", { retryable: true });
    session = await transferChunk(token, advertiserId, request, session);
  }
  const fileId = await finishChunkUpload(token, advertiserId, session);
  return bindVideoFile(token, advertiserId, fileId, request);
}

const videoInfo = z.object({ list: z.array(z.object({ video_id: id, displayable: z.boolean().optional() })) });

/** Whether TikTok has processed the video far enough for ads (`displayable`). */
export async function videoUsable(token: string, advertiserId: string, videoId: string): Promise<boolean> {
  const { list } = await getData(token, "file/video/ad/info/", { advertiser_id: advertiserId, video_ids: [videoId] }, videoInfo, "the video info");
  return list.some((v) => v.video_id === videoId && v.displayable === true);
}

export async function waitVideoUsable(token: string, advertiserId: string, videoId: string, timeoutMs = VIDEO_READY_TIMEOUT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (let wait = 250; ; wait = Math.min(wait * 2, 5000)) {
    if (await videoUsable(token, advertiserId, videoId)) return;
    if (Date.now() + wait > deadline) {
      throw new PlatformError("upstream_error", `platform_b is still processing video ${videoId}; the push is retried`, { retryable: true });
    }
    await sleep(wait);
  }
}

const videoSearch = z.object({ list: z.array(z.object({ video_id: id, file_name: z.string().nullish() })), page_info: pageInfo.optional() });

/**
 * The video an earlier attempt of this upload already put in the library (its file name carries the
 * upload id): a push re-run after a crash or a lost answer finds it instead of uploading a second copy.
 */
export async function findUploadedVideo(token: string, advertiserId: string, request: Pick<PushRequest, "uploadId" | "fileName">): Promise<string | null> {
  const name = libraryFileName(request);
  const { list } = await getData(
    token,
    "file/video/ad/search/",
    { advertiser_id: advertiserId, filtering: { video_name: name }, page: 1, page_size: 100 },
    videoSearch,
    "the video search",
  );
  return list.find((v) => v.file_name === name)?.video_id ?? null;
}

/** The whole push behind today's `pushMedia`: the media's id in the advertiser's library. */
export async function pushMediaToTikTok(token: string, advertiserId: string, request: PushRequest): Promise<string> {
  if (request.sizeBytes === 0) throw new PlatformError("invalid_input", "platform_b refused the media: the file is empty", { retryable: false });
  if (request.kind === "image") return uploadImage(token, advertiserId, request);
  const videoId =
    (await findUploadedVideo(token, advertiserId, request)) ??
    (request.sizeBytes > CHUNKED_VIDEO_THRESHOLD_BYTES
      ? await uploadChunkedVideo(token, advertiserId, request)
      : await uploadSmallVideo(token, advertiserId, request));
  await waitVideoUsable(token, advertiserId, videoId);
  return videoId;
}

/**
 * Our record of a TikTok chunk upload (MediaPush.sessionId): TikTok's upload_id and the length of the
 * first range it named (what a resumed push sends per transfer; TikTok names the same length each time).
 */
export function encodeTikTokSession(session: ChunkSession): string {
  return `${session.uploadId}:${session.endOffset - session.startOffset}`;
}

export function decodeTikTokSession(recorded: string): { uploadId: string; rangeBytes: number } {
  const [uploadId, rangeBytes] = recorded.split(":");
  const bytes = Number(rangeBytes);
  if (!uploadId || !Number.isInteger(bytes) || bytes <= 0)
    throw new PlatformError("upstream_error", "the recorded platform_b upload session is unreadable", { retryable: false });
  return { uploadId, rangeBytes: bytes };
}

export async function startTikTokSession(token: string, advertiserId: string, sizeBytes: number, fileName: string): Promise<string> {
  const data = await postJson(
    token,
    "file/start/upload/",
    { advertiser_id: advertiserId, size: sizeBytes, content_type: "video", name: fileName.slice(0, 100) },
    z.object({ upload_id: id, start_offset: z.coerce.number(), end_offset: z.coerce.number() }),
    "the chunk upload start",
  );
  if (!(data.end_offset > data.start_offset))
    throw new PlatformError("upstream_error", "platform_b answered the chunk upload start without a range", { retryable: true });
  return encodeTikTokSession({ uploadId: data.upload_id, startOffset: data.start_offset, endOffset: data.end_offset });
}

/** The offset TikTok expects, from its refusal of a transfer at another start_offset ("start_offset must be N"). */
function expectedOffset(err: unknown): number | null {
  if (!(err instanceof PlatformError) || err.code !== "invalid_input") return null;
  const match = err.message.match(/start_offset must be (\d+)/);
  return match ? Number(match[1]) : null;
}

/**
 * Sends our chunk [offset, offset + bytes.length) as one /file/transfer/upload/ per TikTok range inside
 * it (each with its MD5 and start_offset). A range TikTok already has (the chunk in flight at a crash)
 * is refused with the offset it expects, which moves us past it instead of failing. Answers the offset
 * TikTok wants next.
 */
export async function transferTikTokChunk(token: string, advertiserId: string, recorded: string, offset: number, bytes: Buffer): Promise<number> {
  const session = decodeTikTokSession(recorded);
  const chunkEnd = offset + bytes.length;
  let start = offset;
  let refusals = 0;
  while (start < chunkEnd) {
    const end = Math.min(chunkEnd, start + session.rangeBytes);
    const part = bytes.subarray(start - offset, end - offset);
    try {
      const form = new FormData();
      form.set("advertiser_id", advertiserId);
      form.set("upload_id", session.uploadId);
      form.set("signature", md5(part));
      form.set("start_offset", String(start));
      form.set("file", new Blob([new Uint8Array(part)], { type: "application/octet-stream" }), "chunk");
      const data = await postForm(
        token,
        "file/transfer/upload/",
        form,
        z.object({ start_offset: z.coerce.number(), end_offset: z.coerce.number() }),
        "a chunk transfer",
      );
      if (!(data.start_offset > start))
        throw new PlatformError("upstream_error", `platform_b did not move past byte ${start} of the chunk upload`, { retryable: true });
      start = data.start_offset;
    } catch (err) {
      const expected = expectedOffset(err);
      if (expected === null || ++refusals > 3) throw err;
      if (expected < offset) {
        throw new PlatformError("upstream_error", `platform_b asks again for byte ${expected}, before the chunk at ${offset} it acknowledged`, {
          retryable: false,
        });
      }
      start = expected;
    }
  }
  return start;
}

/**
 * Closes the upload and binds its file into the library once: the video an earlier attempt already
 * bound (found by its file name, which carries the upload id) is answered instead; TikTok answers a
 * repeated finish with the same file, and a bind refused as a duplicate name is looked up again.
 */
export async function finishTikTokSession(
  token: string,
  advertiserId: string,
  recorded: string,
  request: Pick<PushRequest, "uploadId" | "fileName">,
): Promise<string> {
  const { uploadId } = decodeTikTokSession(recorded);
  const found = await findUploadedVideo(token, advertiserId, request);
  if (found) return found;
  const fileId = await finishChunkUpload(token, advertiserId, { uploadId, startOffset: 0, endOffset: 0 });
  try {
    return await bindVideoFile(token, advertiserId, fileId, request);
  } catch (err) {
    if (refusalCode(err) === DUPLICATED_MATERIAL_NAME) {
      const bound = await findUploadedVideo(token, advertiserId, request);
      if (bound) return bound;
    }
    throw err;
  }
}

/** Where TikTok is with pushed media, for lib/media-push's processing checks (images are usable at once). */
export async function tiktokMediaStatus(token: string, advertiserId: string, media: { externalId: string; kind: MediaKind }): Promise<MediaProcessing> {
  if (media.kind === "image") return { state: "ready" };
  return (await videoUsable(token, advertiserId, media.externalId)) ? { state: "ready" } : { state: "processing" };
}
