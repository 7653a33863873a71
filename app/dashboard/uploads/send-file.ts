import { Upload as TusUpload } from "tus-js-client";

/** Files larger than this go by the resumable (tus) endpoint: a dropped connection resumes where it stopped. */
export const RESUMABLE_THRESHOLD_BYTES = 20 * 1024 * 1024;

/** The upload's form fields; versionOf (a creative id) makes the file that creative's next version, not a new creative. */
export interface UploadFormFields {
  platform: string;
  folderId: string | null;
  versionOf?: string;
}

/** Result of one file's POST /api/v1/uploads. */
export type SendResult = { ok: true; uploadId: string } | { ok: false; error: string };

/**
 * Uploads one file with XMLHttpRequest (fetch has no upload progress), reporting the
 * fraction sent. One request per file, so each gets its own progress bar and error.
 */
export function sendFile(file: File, fields: UploadFormFields, onProgress: (fraction: number) => void): { promise: Promise<SendResult>; abort: () => void } {
  if (file.size > RESUMABLE_THRESHOLD_BYTES) return sendFileResumable(file, fields, onProgress);
  const xhr = new XMLHttpRequest();
  const promise = new Promise<SendResult>((resolve) => {
    const form = new FormData();
    form.append("platform", fields.platform);
    if (fields.folderId) form.append("folderId", fields.folderId);
    if (fields.versionOf) form.append("versionOf", fields.versionOf);
    form.append("files", file, file.name);
    xhr.open("POST", "/api/v1/uploads");
    xhr.responseType = "json";
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
    xhr.onload = () => {
      const body = xhr.response as { uploads?: { id: string }[]; error?: { message?: string } } | null;
      if (xhr.status === 201 && body?.uploads?.[0]) resolve({ ok: true, uploadId: body.uploads[0].id });
      else resolve({ ok: false, error: body?.error?.message ?? `The server answered ${xhr.status}` });
    };
    xhr.onerror = () => resolve({ ok: false, error: "The connection failed while sending. Check your network and try again." });
    xhr.onabort = () => resolve({ ok: false, error: "Cancelled" });
    xhr.send(form);
  });
  return { promise, abort: () => xhr.abort() };
}

/**
 * Uploads one large file over tus (/api/v1/uploads/tus, the session cookie authenticates it):
 * retries after a dropped connection from the offset the server reports, and after a reload
 * resumes the same file's earlier unfinished upload (tus-js-client remembers it in localStorage).
 */
export function sendFileResumable(
  file: File,
  fields: UploadFormFields,
  onProgress: (fraction: number) => void,
): { promise: Promise<SendResult>; abort: () => void } {
  let upload: TusUpload | undefined;
  let settle: (result: SendResult) => void = () => undefined;
  const promise = new Promise<SendResult>((resolve) => {
    settle = resolve;
    upload = new TusUpload(file, {
      endpoint: "/api/v1/uploads/tus",
      metadata: {
        filename: file.name,
        filetype: file.type,
        platform: fields.platform,
        ...(fields.folderId ? { folderId: fields.folderId } : {}),
        ...(fields.versionOf ? { versionOf: fields.versionOf } : {}),
      },
      retryDelays: [0, 1000, 3000, 5000, 10000, 20000],
      removeFingerprintOnSuccess: true,
      onProgress: (sent, total) => onProgress(total ? sent / total : 0),
      onSuccess: () => resolve({ ok: true, uploadId: upload!.url!.split("/").pop()! }),
      onError: (err) => resolve({ ok: false, error: tusErrorMessage(err) }),
    });
    void upload.findPreviousUploads().then((previous) => {
      if (previous[0]) upload!.resumeFromPreviousUpload(previous[0]);
      upload!.start();
    });
  });
  return {
    promise,
    abort: () => {
      void upload?.abort();
      settle({ ok: false, error: "Cancelled" });
    },
  };
}

/** The API's message when the server answered, else a hint about the network. */
function tusErrorMessage(err: Error): string {
  const body = (err as { originalResponse?: { getBody(): string } | null }).originalResponse?.getBody();
  try {
    const message = body ? (JSON.parse(body) as { error?: { message?: string } }).error?.message : undefined;
    if (message) return message;
  } catch {
    /* not JSON */
  }
  return "The connection failed while sending, and retries did not get through. Check your network and try again: the upload resumes where it stopped.";
}
