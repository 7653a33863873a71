/** Result of one file's POST /api/v1/uploads. */
export type SendResult = { ok: true; uploadId: string } | { ok: false; error: string };

/**
 * Uploads one file with XMLHttpRequest (fetch has no upload progress), reporting the
 * fraction sent. One request per file, so each gets its own progress bar and error.
 */
export function sendFile(
  file: File,
  fields: { platform: string; folderId: string | null },
  onProgress: (fraction: number) => void,
): { promise: Promise<SendResult>; abort: () => void } {
  const xhr = new XMLHttpRequest();
  const promise = new Promise<SendResult>((resolve) => {
    const form = new FormData();
    form.append("platform", fields.platform);
    if (fields.folderId) form.append("folderId", fields.folderId);
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
