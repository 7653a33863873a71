import { Transform, type TransformCallback } from "node:stream";
import { badRequest } from "@/lib/errors";
import { describeBytes, UPLOAD_LIMITS } from "./limits";
import { detectMediaFormat, SIGNATURE_BYTES, SUPPORTED_FORMATS, type MediaFormat, type MediaKind } from "@/lib/platforms/media-signature";

/**
 * Passes a file's bytes through while checking them: the leading bytes must be a
 * recognized format agreeing with the declared content type, and the running size
 * must stay within the limit of its kind. Any violation errors the stream with a
 * 400 naming the file, so whatever consumes it (media storage) discards its write.
 */
export class MediaInspector extends Transform {
  private head: Buffer[] = [];
  private headBytes = 0;
  private detected: MediaFormat | null = null;
  private bytes = 0;

  /**
   * With declaredType and declaredKind null the stream is sniffed: any supported format is taken
   * (imports, where the provider's type is not trusted), and the `format` event tells it as soon
   * as the leading bytes have arrived, before anything is passed on.
   */
  constructor(
    private readonly fileName: string,
    private readonly declaredType: string | null,
    private readonly declaredKind: MediaKind | null,
  ) {
    super();
  }

  /** The verified format; set once the stream has ended successfully. */
  get format(): MediaFormat | null {
    return this.detected;
  }

  get sizeBytes(): number {
    return this.bytes;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    if (!this.detected) {
      this.head.push(chunk);
      this.headBytes += chunk.length;
      if (this.headBytes < SIGNATURE_BYTES) return callback();
      const error = this.identify();
      if (error) return callback(error);
      const buffered = Buffer.concat(this.head);
      this.head = [];
      return callback(this.sizeError(), buffered);
    }
    callback(this.sizeError(), chunk);
  }

  override _flush(callback: TransformCallback): void {
    if (this.detected) return callback();
    if (this.headBytes === 0) return callback(badRequest(`File "${this.fileName}" is empty`));
    const error = this.identify();
    if (error) return callback(error);
    callback(this.sizeError(), Buffer.concat(this.head));
  }

  private identify(): Error | null {
    const format = detectMediaFormat(Buffer.concat(this.head));
    if (!format) {
      if (this.declaredKind === null || this.declaredType === null) {
        return badRequest(
          `File "${this.fileName}" is not a supported image or video; supported formats: ${[...SUPPORTED_FORMATS.image, ...SUPPORTED_FORMATS.video].join(", ")}`,
        );
      }
      return badRequest(
        `File "${this.fileName}" is not a supported ${this.declaredKind} (declared ${this.declaredType}); ` +
          `supported ${this.declaredKind} formats: ${SUPPORTED_FORMATS[this.declaredKind].join(", ")}`,
      );
    }
    if (this.declaredType !== null && !format.accepts.includes(this.declaredType)) {
      return badRequest(`File "${this.fileName}" is declared as ${this.declaredType} but its content is ${format.name} (${format.contentType})`);
    }
    this.detected = format;
    this.emit("format", format);
    return null;
  }

  private sizeError(): Error | undefined {
    // Sniffed and not yet known: the largest limit applies until the format is.
    const kind = this.detected?.kind ?? this.declaredKind ?? (UPLOAD_LIMITS.maxBytes.image > UPLOAD_LIMITS.maxBytes.video ? "image" : "video");
    const limit = UPLOAD_LIMITS.maxBytes[kind];
    if (this.bytes <= limit) return undefined;
    return badRequest(`File "${this.fileName}" exceeds the ${describeBytes(limit)} limit for ${kind}s`);
  }
}
