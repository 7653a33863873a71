import { createHash, type Hash } from "node:crypto";
import { PassThrough, Readable } from "node:stream";
import { finished } from "node:stream/promises";
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
  /**
   * With `{ digest: true }`: once `files` has ended, SHA-256 of what the form says, whatever its boundary: each
   * file part's name, file name, declared type and bytes in body order, and the fields by name. Null before that,
   * without the option, and when the body was not read to its end (cut short, malformed, too slow).
   */
  digest: () => string | null;
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
export function multipartFiles(request: Request, options: { digest?: boolean } = {}): MultipartUploadForm {
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
  const formDigest = options.digest ? new FormDigest() : null;
  return { files: readFileParts(body, parser, fields, formDigest), fields, digest: () => formDigest?.value() ?? null };
}

/**
 * Reads a multipart upload form to its end without keeping a byte of it, for its digest: an idempotent repeat of an
 * upload (lib/idempotency/run.ts) is compared with the first by what its body says. A form the first request was
 * refused for (a field sent twice) still has a digest; a body that cannot be read to its end is a 400.
 */
export async function multipartDigest(request: Request): Promise<string> {
  const form = multipartFiles(request, { digest: true });
  try {
    for await (const file of form.files) {
      file.stream.resume();
      await finished(file.stream);
    }
  } catch (err) {
    const digest = form.digest();
    if (digest === null) throw err;
    return digest;
  }
  const digest = form.digest();
  if (digest === null) throw badRequest("Malformed multipart body: it ended early");
  return digest;
}

/** The parts of a form as they stream, hashed for `MultipartUploadForm.digest`. */
class FormDigest {
  private readonly files: { hash: Hash; hex: string | null }[] = [];
  private readonly fields: string[] = [];
  private readToTheEnd = false;

  addField(name: string, value: string): void {
    this.fields.push(JSON.stringify([name, value]));
  }

  /** Attached before the part is piped anywhere: it sees every chunk the parser hands the part. */
  addFile(fieldName: string, info: busboy.FileInfo, stream: Readable): void {
    const file = { hash: createHash("sha256").update(JSON.stringify([fieldName, info.filename ?? "", info.mimeType ?? ""])), hex: null as string | null };
    this.files.push(file);
    stream.on("data", (chunk: Buffer) => file.hash.update(chunk));
    stream.once("end", () => (file.hex = file.hash.digest("hex")));
  }

  /** The parser reached the body's end without an error. */
  sealed(): void {
    this.readToTheEnd = true;
  }

  value(): string | null {
    if (!this.readToTheEnd || this.files.some((f) => f.hex === null)) return null;
    const hash = createHash("sha256");
    for (const file of this.files) hash.update(`file ${file.hex}\n`);
    for (const field of [...this.fields].sort()) hash.update(`field ${field}\n`);
    return hash.digest("hex");
  }
}

type PartEvent = { file: IncomingFile } | { closed: true };

async function* readFileParts(body: Readable, parser: busboy.Busboy, fields: UploadFields, formDigest: FormDigest | null): AsyncGenerator<IncomingFile> {
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
    formDigest?.addField(name, value);
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
    formDigest?.addFile(fieldName, info, stream);
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
  parser.on("close", () => {
    // After every part's end (busboy closes once its file streams have ended): the body was read to its end.
    if (!parseError) formDigest?.sealed();
    close();
  });
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
