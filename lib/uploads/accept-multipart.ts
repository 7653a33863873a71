import type { Readable } from "node:stream";
import busboy from "busboy";
import { badRequest, isAppError } from "@/lib/errors";
import { BodyDeadline, streamedBodyDeadlines, type BodyDeadlines } from "@/lib/http/body-deadline";
import { findTextInputProblem } from "@/lib/http/text-input";
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
 * A malformed body (cut short, broken part headers) or a body that stalls settles promptly:
 * every file stream still open is ended with the error, so no handler waits on it forever.
 */
export function readMultipart(
  body: Readable,
  contentTypeHeader: string | null,
  handlers: MultipartHandlers,
  deadlines: BodyDeadlines = streamedBodyDeadlines(),
): Promise<void> {
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
    let parseError: Error | null = null;
    const pending: Promise<void>[] = [];
    const openFiles = new Set<Readable>();
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
    /** Ends every file stream still being read, so handlers piping them settle. */
    const abortOpenFiles = (err: Error) => {
      for (const stream of openFiles) stream.destroy(err);
      openFiles.clear();
    };

    let settled = false;
    const settle = () => {
      if (settled) return;
      settled = true;
      deadline.stop();
      void Promise.allSettled(pending).then(() => {
        // A handler that failed only because the body broke under it reports the broken body.
        if (firstError && isAppError(firstError)) reject(firstError);
        else if (parseError) reject(badRequest(`Malformed multipart body: ${parseError.message}`));
        else if (firstError) reject(firstError);
        else resolve();
      });
    };
    const deadline = new BodyDeadline(deadlines, (message) => {
      const err = badRequest(message);
      fail(err);
      abortOpenFiles(err);
      body.unpipe(parser);
      body.destroy(); // a client this slow is cut off, not waited for
      settle();
    });

    parser.on("field", (name, value, info) => {
      if (firstError) return;
      if (info.valueTruncated) return fail(badRequest(`Field "${name}" is longer than ${UPLOAD_LIMITS.maxFieldBytes} bytes`));
      const textProblem = findTextInputProblem({ [name]: value });
      if (textProblem) return fail(badRequest(`Invalid form field: ${textProblem.path}: ${textProblem.reason}`));
      track(() => handlers.onField(name, value));
    });
    parser.on("file", (fieldName, stream, info) => {
      // Attached at once: the parser may error this stream before the handler (a microtask later) listens.
      stream.on("error", (err: Error & { code?: string }) => {
        // The parser's own errors carry no code (system and stream errors do): the body is malformed.
        if (!isAppError(err) && !err.code) parseError ??= err;
      });
      if (firstError) {
        stream.resume();
        return;
      }
      const fileName = info.filename ?? "";
      const textProblem = findTextInputProblem({ [fieldName]: fileName });
      if (textProblem) {
        stream.resume();
        return fail(badRequest(`Invalid file name in part "${textProblem.path}": ${textProblem.reason}`));
      }
      openFiles.add(stream);
      stream.once("close", () => openFiles.delete(stream));
      stream.once("end", () => openFiles.delete(stream));
      const part = { fieldName, fileName, declaredType: info.mimeType ?? "", stream };
      // A failed handler may leave the part half read: drain it so parsing can reach the end.
      track(() => handlers.onFile(part), () => stream.resume());
    });
    parser.on("fieldsLimit", () => fail(badRequest(`Too many form fields (at most ${UPLOAD_LIMITS.maxFields})`)));
    parser.on("error", (err: Error) => {
      parseError ??= err;
      abortOpenFiles(badRequest(`Malformed multipart body: ${err.message}`));
      body.unpipe(parser);
      body.resume(); // read and discard the rest, so the client gets the answer
      // After an error the parser may never close (it is no longer fed): decide now.
      settle();
    });
    parser.on("close", settle);
    body.on("error", (err) => {
      parser.destroy(err);
    });
    body.pipe(parser);
    body.on("data", () => deadline.touch()); // after pipe(): a data listener alone would start the flow
  });
}
