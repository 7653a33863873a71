import type { Readable } from "node:stream";
import busboy from "busboy";
import { badRequest } from "@/lib/errors";
import { UPLOAD_LIMITS } from "./limits";

export interface MultipartFilePart {
  fieldName: string;
  /** As the client sent it (may be empty); sanitize before use. */
  fileName: string;
  declaredType: string;
  stream: Readable;
}

export interface MultipartHandlers {
  onField(name: string, value: string): void | Promise<void>;
  /** Must consume `part.stream` (or fail); the parser cannot move on until it is read. */
  onFile(part: MultipartFilePart): Promise<void>;
}

/**
 * Parses a multipart/form-data body as it arrives, handing each part to a handler in
 * the order it appears. After the first handler failure, the rest of the body is read
 * and discarded (so the client receives the error instead of a broken connection) and
 * the first failure is rethrown once the body has ended.
 */
export function readMultipart(body: Readable, contentTypeHeader: string | null, handlers: MultipartHandlers): Promise<void> {
  if (!contentTypeHeader || !/^multipart\/form-data\s*;/i.test(contentTypeHeader) || !/boundary=/i.test(contentTypeHeader)) {
    return Promise.reject(badRequest("Send the files as multipart/form-data (with a boundary), one part named files per file"));
  }
  return new Promise<void>((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: { "content-type": contentTypeHeader },
        defParamCharset: "utf8",
        limits: { fields: UPLOAD_LIMITS.maxFields, fieldSize: UPLOAD_LIMITS.maxFieldBytes, fieldNameSize: 100 },
      });
    } catch (err) {
      return reject(badRequest(`Invalid multipart request: ${(err as Error).message}`));
    }

    let firstError: unknown = null;
    const pending: Promise<void>[] = [];
    const fail = (err: unknown) => {
      firstError ??= err;
    };
    const track = (work: () => void | Promise<void>, onSettledFailure?: () => void) => {
      pending.push(
        Promise.resolve()
          .then(work)
          .catch((err) => {
            fail(err);
            onSettledFailure?.();
          }),
      );
    };

    parser.on("field", (name, value, info) => {
      if (firstError) return;
      if (info.valueTruncated) return fail(badRequest(`Field "${name}" is longer than ${UPLOAD_LIMITS.maxFieldBytes} bytes`));
      track(() => handlers.onField(name, value));
    });
    parser.on("file", (fieldName, stream, info) => {
      if (firstError) {
        stream.resume();
        return;
      }
      const part = { fieldName, fileName: info.filename ?? "", declaredType: info.mimeType ?? "", stream };
      // A failed handler may leave the part half read: drain it so parsing can reach the end.
      track(() => handlers.onFile(part), () => stream.resume());
    });
    parser.on("fieldsLimit", () => fail(badRequest(`Too many form fields (at most ${UPLOAD_LIMITS.maxFields})`)));
    let parseError: Error | null = null;
    parser.on("error", (err: Error) => {
      parseError = err;
      body.unpipe(parser);
      body.resume();
    });
    // "close" follows "error" too; it is the one place the outcome is decided.
    parser.on("close", () => {
      void Promise.allSettled(pending).then(() => {
        if (firstError) reject(firstError);
        else if (parseError) reject(badRequest(`Malformed multipart body: ${parseError.message}`));
        else resolve();
      });
    });
    body.on("error", (err) => {
      parser.destroy(err);
    });
    body.pipe(parser);
  });
}
