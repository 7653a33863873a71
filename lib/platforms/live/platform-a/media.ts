import { setTimeout as sleep } from "node:timers/promises";
import { type MediaKind, type MediaProcessing, PlatformError, type PushRequest } from "../../types";
import { storedMediaBytes } from "../../stored-media";
import { GraphCallError, graphGet, graphPost, graphPostFile } from "./graph";

/**
 * Media into a Meta ad account's library, one function per phase of Meta's protocol so a chunked,
 * resumable upload job can call them step by step:
 *
 * - images: POST /act_<id>/adimages with `bytes` (base64) -> `images.<name>.hash` (the spec's imageHash);
 * - videos (resumable upload, /act_<id>/advideos): `upload_phase=start` with `file_size` -> session id,
 *   video id and the first byte range; `upload_phase=transfer` with `start_offset` and `video_file_chunk`
 *   per range Meta asks for next; `upload_phase=finish`; then GET /<video_id>?fields=status until
 *   `status.video_status` is `ready` (or `error`, failing with Meta's reason).
 *
 * A video larger than MEDIA_CHUNK_BYTES is driven by lib/media-push through the session functions at
 * the end of this file (startMetaSession / transferMetaChunk / finishMetaSession / metaMediaStatus),
 * which record each acknowledged chunk, so a push cut short resumes the same Meta session.
 */

/** Uploads one image; answers its hash. The same bytes always get the same hash (Meta keeps one image). */
export async function uploadImage(accountId: string, token: string, file: { name: string; storageKey: string; sizeBytes: number }): Promise<string> {
  const bytes = await storedMediaBytes(file.storageKey);
  if (bytes.length !== file.sizeBytes) {
    throw new PlatformError("upstream_error", `read ${bytes.length} of ${file.sizeBytes} bytes from storage; the file is incomplete`, { retryable: true });
  }
  const answer = await graphPost(`${accountId}/adimages`, token, { bytes: bytes.toString("base64"), name: file.name.slice(0, 100) });
  const images = Object.values(answer?.images ?? {}) as { hash?: string }[];
  const hash = images[0]?.hash;
  if (typeof hash !== "string" || !hash) throw new PlatformError("upstream_error", "platform_a answered the image upload without a hash", { retryable: true });
  return hash;
}

export interface VideoSession {
  videoId: string;
  sessionId: string;
  /** The byte range Meta wants next: [startOffset, endOffset). Equal offsets mean everything arrived. */
  startOffset: number;
  endOffset: number;
}

export async function startVideoUpload(accountId: string, token: string, fileSize: number): Promise<VideoSession> {
  const answer = await graphPost(`${accountId}/advideos`, token, { upload_phase: "start", file_size: fileSize });
  if (!answer?.upload_session_id || !answer?.video_id)
    throw new PlatformError("upstream_error", "platform_a answered the video upload start without a session", { retryable: true });
  return {
    videoId: String(answer.video_id),
    sessionId: String(answer.upload_session_id),
    startOffset: Number(answer.start_offset),
    endOffset: Number(answer.end_offset),
  };
}

/** Sends the range Meta asked for; answers the session with the next range. */
export async function transferVideoChunk(accountId: string, token: string, session: VideoSession, storageKey: string): Promise<VideoSession> {
  const bytes = await storedMediaBytes(storageKey, { start: session.startOffset, end: session.endOffset });
  if (bytes.length !== session.endOffset - session.startOffset) {
    throw new PlatformError("upstream_error", `read ${bytes.length} bytes of a ${session.endOffset - session.startOffset}-byte chunk from storage`, {
      retryable: true,
    });
  }
  const answer = await graphPostFile(
    `${accountId}/advideos`,
    token,
    { upload_phase: "transfer", upload_session_id: session.sessionId, start_offset: session.startOffset },
    { field: "video_file_chunk", name: "chunk", contentType: "application/octet-stream", bytes },
  );
  return { ...session, startOffset: Number(answer.start_offset), endOffset: Number(answer.end_offset) };
}

export async function finishVideoUpload(accountId: string, token: string, session: VideoSession, title: string): Promise<void> {
  const answer = await graphPost(`${accountId}/advideos`, token, { upload_phase: "finish", upload_session_id: session.sessionId, title });
  if (answer?.success !== true) throw new PlatformError("upstream_error", "platform_a did not confirm the end of the video upload", { retryable: true });
}

export type VideoProcessing = { state: "ready" } | { state: "processing"; progress: number } | { state: "error"; reason: string };

/** Where Meta is with the video: `status.video_status` ready / processing / error (with the failed phase's errors). */
export async function videoProcessing(videoId: string, token: string): Promise<VideoProcessing> {
  const { status } = await graphGet(videoId, token, { fields: "status" });
  if (status?.video_status === "ready") return { state: "ready" };
  if (status?.video_status === "error") {
    const phases = [status.uploading_phase, status.processing_phase, status.publishing_phase];
    const reasons = phases.flatMap((p: any) => (p?.errors ?? []).map((e: any) => e?.message)).filter(Boolean);
    return { state: "error", reason: reasons.join("; ") || "the video could not be processed" };
  }
  return { state: "processing", progress: Number(status?.processing_progress ?? 0) };
}

/** Polls until the video is ready; Meta's processing error is terminal (the file itself is refused). */
export async function waitForVideoReady(videoId: string, token: string, options: { timeoutMs?: number; pollMs?: number } = {}): Promise<void> {
  const deadline = Date.now() + (options.timeoutMs ?? 10 * 60_000);
  let wait = options.pollMs ?? 500;
  for (;;) {
    const state = await videoProcessing(videoId, token);
    if (state.state === "ready") return;
    if (state.state === "error") throw new PlatformError("invalid_input", `platform_a refused the video: ${state.reason}`, { retryable: false });
    if (Date.now() + wait > deadline)
      throw new PlatformError("upstream_error", `platform_a is still processing video ${videoId} (${state.progress}%)`, { retryable: true });
    await sleep(wait);
    wait = Math.min(wait * 2, 5_000);
  }
}

/** The title a pushed video gets at finish: it names the upload, so a later attempt can find the video. */
export const videoTitle = (fileName: string, uploadId: string) => `${fileName.slice(0, 200)} [adloom:${uploadId}]`;

/**
 * A video an earlier attempt of this upload finished (its title names the upload) and Meta has not
 * refused: the newest 100 of the account's videos are looked at. A push cut short while Meta was
 * processing then waits for that video instead of uploading a second copy.
 */
export async function findFinishedVideo(accountId: string, token: string, title: string): Promise<string | null> {
  const page = await graphGet(`${accountId}/advideos`, token, { fields: "id,title,status", limit: 100 });
  const earlier = (page.data ?? []).find((v: any) => v.title === title && v.status?.video_status !== "error" && v.status?.video_status !== "upload_incomplete");
  return earlier ? String(earlier.id) : null;
}

/** The whole video upload: start, every chunk Meta asks for, finish, then processing. Answers the video id. */
export async function uploadVideo(
  accountId: string,
  token: string,
  file: { name: string; storageKey: string; sizeBytes: number; title: string },
): Promise<string> {
  const earlier = await findFinishedVideo(accountId, token, file.title);
  if (earlier) {
    await waitForVideoReady(earlier, token);
    return earlier;
  }
  let session = await startVideoUpload(accountId, token, file.sizeBytes);
  while (session.startOffset < session.endOffset) session = await transferVideoChunk(accountId, token, session, file.storageKey);
  await finishVideoUpload(accountId, token, session, file.title);
  await waitForVideoReady(session.videoId, token);
  return session.videoId;
}

export async function pushMetaMedia(accountId: string, token: string, request: PushRequest): Promise<string> {
  const file = { name: request.fileName, storageKey: request.storageKey, sizeBytes: request.sizeBytes, title: videoTitle(request.fileName, request.uploadId) };
  if (request.sizeBytes === 0) throw new PlatformError("invalid_input", "platform_a refused the media: the file is empty", { retryable: false });
  return request.kind === "image" ? uploadImage(accountId, token, file) : uploadVideo(accountId, token, file);
}

/**
 * Our record of a Meta upload session (MediaPush.sessionId): Meta's upload_session_id, the video it
 * makes, and the length of the first range Meta named (what a resumed push sends before Meta names again).
 */
export function encodeMetaSession(session: VideoSession): string {
  return `${session.sessionId}:${session.videoId}:${session.endOffset - session.startOffset}`;
}

export function decodeMetaSession(recorded: string): { sessionId: string; videoId: string; rangeBytes: number } {
  const [sessionId, videoId, rangeBytes] = recorded.split(":");
  const bytes = Number(rangeBytes);
  if (!sessionId || !videoId || !Number.isInteger(bytes) || bytes <= 0)
    throw new PlatformError("upstream_error", "the recorded platform_a upload session is unreadable", { retryable: false });
  return { sessionId, videoId, rangeBytes: bytes };
}

/** The range Meta last named per session (this process); a restarted one falls back to the first range's length. */
const namedRanges = new Map<string, { start: number; end: number }>();

export async function startMetaSession(accountId: string, token: string, fileSize: number): Promise<string> {
  const session = await startVideoUpload(accountId, token, fileSize);
  namedRanges.set(session.sessionId, { start: session.startOffset, end: session.endOffset });
  return encodeMetaSession(session);
}

/** The range Meta expects, from a refused transfer (subcode 1363037, `error_data: {start_offset, end_offset}`). */
function expectedRange(err: unknown): { start: number; end: number } | null {
  if (!(err instanceof GraphCallError) || err.subcode !== 1363037) return null;
  let data: any = err.errorData;
  if (typeof data === "string") {
    try {
      data = JSON.parse(data);
    } catch {
      data = null;
    }
  }
  const text = `${typeof err.errorData === "string" ? err.errorData : ""} ${err.graphMessage}`;
  const start = Number(data?.start_offset ?? text.match(/start_offset\D{0,3}(\d+)/)?.[1]);
  const end = Number(data?.end_offset ?? text.match(/end_offset\D{0,3}(\d+)/)?.[1]);
  return Number.isInteger(start) && Number.isInteger(end) ? { start, end } : null;
}

/**
 * Sends our chunk [offset, offset + bytes.length) in the ranges Meta names: one transfer per range
 * inside the chunk. A chunk Meta already has (the one in flight at a crash) is refused with the
 * range Meta expects, which moves us past it instead of failing. Answers the offset Meta wants next.
 */
export async function transferMetaChunk(accountId: string, token: string, recorded: string, offset: number, bytes: Buffer): Promise<number> {
  const session = decodeMetaSession(recorded);
  const chunkEnd = offset + bytes.length;
  let start = offset;
  let refusals = 0;
  while (start < chunkEnd) {
    const named = namedRanges.get(session.sessionId);
    const end = Math.min(chunkEnd, named?.start === start && named.end > start ? named.end : start + session.rangeBytes);
    try {
      const answer = await graphPostFile(
        `${accountId}/advideos`,
        token,
        { upload_phase: "transfer", upload_session_id: session.sessionId, start_offset: start },
        { field: "video_file_chunk", name: "chunk", contentType: "application/octet-stream", bytes: bytes.subarray(start - offset, end - offset) },
      );
      const next = { start: Number(answer?.start_offset), end: Number(answer?.end_offset) };
      if (!Number.isInteger(next.start) || next.start <= start)
        throw new PlatformError("upstream_error", `platform_a did not move past byte ${start} of the video upload`, { retryable: true });
      namedRanges.set(session.sessionId, next);
      start = next.start;
    } catch (err) {
      const expected = expectedRange(err);
      if (!expected || ++refusals > 3) throw err;
      namedRanges.set(session.sessionId, expected);
      if (expected.start < offset) {
        throw new PlatformError("upstream_error", `platform_a asks again for byte ${expected.start}, before the chunk at ${offset} it acknowledged`, {
          retryable: false,
        });
      }
      start = expected.start;
    }
  }
  return start;
}

/** Closes the session; the title names the upload (as in uploadVideo). Answers the video id; Meta then processes it. */
export async function finishMetaSession(accountId: string, token: string, recorded: string, title: string): Promise<string> {
  const session = decodeMetaSession(recorded);
  await finishVideoUpload(accountId, token, { ...session, startOffset: 0, endOffset: 0 }, title);
  namedRanges.delete(session.sessionId);
  return session.videoId;
}

/** Where Meta is with pushed media, for lib/media-push's processing checks (images are usable at once). */
export async function metaMediaStatus(token: string, media: { externalId: string; kind: MediaKind }): Promise<MediaProcessing> {
  if (media.kind === "image") return { state: "ready" };
  const state = await videoProcessing(media.externalId, token);
  if (state.state === "error") return { state: "failed", reason: `platform_a refused the video: ${state.reason}` };
  return state.state === "ready" ? { state: "ready" } : { state: "processing" };
}
