import { PassThrough, Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import busboy from "busboy";
import { badRequest, isAppError } from "@/lib/errors";
import { BodyDeadline, streamedBodyDeadlines } from "./body-deadline";
import { nodeRequestBody } from "./node-request-body";
import { sendsBody } from "./pages-api-request";
import { findTextInputProblem } from "@/lib/text-input";
import type { IncomingFile, UploadFields } from "@/lib/uploads/accept-uploads";
import { UPLOAD_LIMITS } from "@/lib/uploads/limits";

/** The upload form of POST /api/v1/uploads, read as it streams. */
export interface MultipartUploadForm {
  /** Each part named `files`, in body order; its stream must be consumed before the next is asked for. */
  files: AsyncIterable<IncomingFile>;
  /**
   * `platform`, `folderId` and `versionOf` in the order they come. A form may send them after its files,
   * so they are filled in while `files` is read and complete once it has ended.
   */
  fields: UploadFields;
}

const FIELDS = new Set<string>(["platform", "folderId", "versionOf"]);
const PART_BUFFER_BYTES = 1024 * 1024;

/**
 * The HTTP edge of uploads: parses a multipart/form-data request body as it arrives (busboy),
 * with the request limits (field count and size), and hands the file parts on one at a time.
 * Form mistakes (a `files` part without a file name, a file in another part, a field sent twice)
 * are 400s. After the first failure, whether the form's or the consumer's, the rest of the body is
 * read and discarded before the failure surfaces, so the client receives the error instead of a
 * broken connection.
 */
export function multipartFiles(request: Request): MultipartUploadForm {
  if (!sendsBody(request)) throw badRequest("No files: send one or more parts named files");
  const contentType = request.headers.get("content-type");
  if (!contentType || !/^multipart\/form-data\s*;/i.test(contentType) || !/boundary=/i.test(contentType)) {
    throw badRequest("Send the files as multipart/form-data (with a boundary), one part named files per file");
  }
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { "content-type": contentType },
      defParamCharset: "utf8",
      limits: { fields: UPLOAD_LIMITS.maxFields, fieldSize: UPLOAD_LIMITS.maxFieldBytes, fieldNameSize: 100 },
    });
  } catch (err) {
    throw badRequest(`Invalid multipart request: ${(err as Error).message}`);
  }
  const body = nodeRequestBody(request) ?? Readable.fromWeb(request.body! as unknown as NodeReadableStream<Uint8Array>);
  const fields: UploadFields = {};
  return { files: readFileParts(body, parser, fields), fields };
}

type PartEvent = { file: IncomingFile } | { closed: true };

async function* readFileParts(body: Readable, parser: busboy.Busboy, fields: UploadFields): AsyncGenerator<IncomingFile> {
  let formError: unknown = null;
  let parseError: Error | null = null;
  /** Set once the consumer stopped early: every later part is drained unread. */
  let discarding = false;
  const queue: PartEvent[] = [];
  let wake: (() => void) | null = null;
  const push = (event: PartEvent) => {
    queue.push(event);
    wake?.();
  };
  const next = async (): Promise<PartEvent> => {
    while (!queue.length) await new Promise<void>((resolve) => (wake = resolve));
    wake = null;
    return queue.shift()!;
  };
  const fail = (err: unknown) => {
    formError ??= err;
  };
  // A malformed body (cut short, broken part headers) or one that stalls must settle promptly: every file
  // stream still open is ended with the error, so the consumer piping it never waits forever.
  const openFiles = new Set<Readable>();
  const abortOpenFiles = (err: Error) => {
    for (const stream of openFiles) stream.destroy(err);
    openFiles.clear();
  };
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    deadline.stop();
    push({ closed: true });
  };
  const deadline = new BodyDeadline(streamedBodyDeadlines(), (message) => {
    const err = badRequest(message);
    fail(err);
    abortOpenFiles(err);
    body.unpipe(parser);
    body.destroy(); // a client this slow is cut off, not waited for
    close();
  });

  parser.on("field", (name, value, info) => {
    if (formError || discarding) return;
    if (info.valueTruncated) return fail(badRequest(`Field "${name}" is longer than ${UPLOAD_LIMITS.maxFieldBytes} bytes`));
    const textProblem = findTextInputProblem({ [name]: value });
    if (textProblem) return fail(badRequest(`Invalid form field: ${textProblem.path}: ${textProblem.reason}`));
    if (name === "files")
      return fail(badRequest('A part named files has no filename: send each file as a file part (Content-Disposition with filename="...")'));
    if (!FIELDS.has(name)) return; // unknown fields are ignored, as clients may add their own
    if (Object.hasOwn(fields, name)) return fail(badRequest(`Field "${name}" was sent more than once`));
    fields[name as keyof UploadFields] = value;
  });
  parser.on("file", (fieldName, stream, info) => {
    // Attached at once: the parser may error this stream before the consumer listens.
    stream.on("error", (err: Error & { code?: string }) => {
      // The parser's own errors carry no code (system and stream errors do): the body is malformed.
      if (!isAppError(err) && !err.code) parseError ??= err;
    });
    if (formError || discarding) return void stream.resume();
    const fileName = info.filename ?? "";
    const textProblem = findTextInputProblem({ [fieldName]: fileName });
    if (textProblem) {
      stream.resume();
      return fail(badRequest(`Invalid file name in part "${textProblem.path}": ${textProblem.reason}`));
    }
    if (fieldName !== "files") {
      stream.resume();
      return fail(badRequest(`Unexpected file part "${fieldName}": send each file in a part named files`));
    }
    // The consumer reads the part through a pass-through, so a part the parser breaks (a body cut short)
    // reaches it as the client's error (400), not as a failure of ours.
    // A roomy buffer (as storage's write, lib/storage/local.ts): the parser keeps reading while the disk writes.
    const part = new PassThrough({ highWaterMark: PART_BUFFER_BYTES });
    stream.on("error", (err: Error & { code?: string }) => {
      part.destroy(!isAppError(err) && !err.code ? badRequest(`Malformed multipart body: ${err.message}`) : err);
    });
    stream.pipe(part);
    openFiles.add(part);
    part.once("close", () => {
      openFiles.delete(part);
      // A consumer that gave up on the part (it destroyed it: wrong type, too large) leaves the parser's stream
      // unpiped and paused; drain it, or the parser waits on it and the request never settles.
      if (!stream.readableEnded) {
        stream.unpipe(part);
        stream.resume();
      }
    });
    part.once("end", () => openFiles.delete(part));
    push({ file: { fileName, declaredType: info.mimeType ?? "", stream: part } });
  });
  parser.on("fieldsLimit", () => fail(badRequest(`Too many form fields (at most ${UPLOAD_LIMITS.maxFields})`)));
  parser.on("error", (err: Error) => {
    parseError ??= err;
    abortOpenFiles(badRequest(`Malformed multipart body: ${err.message}`));
    body.unpipe(parser);
    body.resume(); // read and discard the rest, so the client gets the answer
    close(); // after an error the parser may never close (it is no longer fed): decide now
  });
  parser.on("close", close);
  body.on("error", (err) => parser.destroy(err));
  body.pipe(parser);
  body.on("data", () => deadline.touch()); // after pipe(): a data listener alone would start the flow

  let current: IncomingFile | null = null;
  let ended = false;
  try {
    for (;;) {
      const event = await next();
      if ("closed" in event) break;
      if (formError) {
        event.file.stream.resume();
        continue;
      }
      current = event.file;
      yield current;
      current = null;
    }
    ended = true;
  } finally {
    if (!ended) {
      // The consumer stopped (it failed): drain what is left, so the body is read to its end.
      discarding = true;
      current?.stream.resume();
      for (;;) {
        const event = await next();
        if ("closed" in event) break;
        event.file.stream.resume();
      }
    }
  }
  if (formError) throw formError;
  if (parseError) throw badRequest(`Malformed multipart body: ${(parseError as Error).message}`);
}
