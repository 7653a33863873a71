import type { IncomingMessage } from "node:http";
import { Readable } from "node:stream";

/**
 * The body of a Node request as a web stream that touches the Node request only once something reads
 * it: until then the Node request stays untouched, so a route that streams a large body can take it
 * directly (lib/http/node-request-body.ts) instead of through this stream.
 */
function lazyBodyOf(req: IncomingMessage): ReadableStream<Uint8Array> {
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        reader ??= (Readable.toWeb(req) as ReadableStream<Uint8Array>).getReader();
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      },
      cancel: (reason) => reader?.cancel(reason),
    },
    { highWaterMark: 0 },
  );
}

/**
 * The web Request a Pages API route works on (lib/http/pages-api.ts). Its URL is parsed once, as
 * `nextUrl` (`urlOf` reads it, as on Next's own NextRequest). Its body, when one was sent, becomes a web
 * body only once something asks for one (`body`, `text()`, `json()`…): a small JSON body that has
 * already arrived is read straight from the Node request (`readBodyText`, `arrivedRequestBody`), and then
 * the web stream, its source and the second Request that carries them are never made: 8–10 µs of the
 * 50–65 µs a tool call cost over its REST twin (docs/performance.md, round 9).
 */
export class PagesApiRequest extends Request {
  #incoming: IncomingMessage | null;
  #bodied: Request | undefined;
  #taken = false;

  /** `incoming` is the Node request whose body this Request carries; null when none was sent. */
  constructor(
    readonly nextUrl: URL,
    init: Omit<RequestInit, "body">,
    incoming: IncomingMessage | null,
  ) {
    super(nextUrl, init);
    this.#incoming = incoming;
  }

  /** Whether the client sent a body, known without making the web one. */
  get sendsBody(): boolean {
    return this.#incoming !== null;
  }

  /** The Node request the body arrives on, while no reader has taken the body in either form; null otherwise. */
  get nodeBody(): IncomingMessage | null {
    return this.#taken || this.#bodied ? null : this.#incoming;
  }

  /** Records that a reader took the body from `nodeBody`: it is used, as a web body that was read is. */
  markBodyTaken(): void {
    this.#taken = true;
  }

  /** The same request with its body as a web stream, made on first use. */
  #withBody(): Request {
    if (!this.#bodied) {
      const init: RequestInit & { duplex: "half" } = { method: this.method, headers: this.headers, signal: this.signal, duplex: "half" };
      init.body = lazyBodyOf(this.#incoming!);
      this.#bodied = new Request(this.nextUrl, init);
      // Taken from the Node request already (markBodyTaken): a web reader finds it used up.
      if (this.#taken) void this.#bodied.body!.cancel().catch(() => undefined);
    }
    return this.#bodied;
  }

  override get body(): ReadableStream<Uint8Array<ArrayBuffer>> | null {
    return this.#incoming ? this.#withBody().body : super.body;
  }
  override get bodyUsed(): boolean {
    return this.#taken || (this.#bodied ? this.#bodied.bodyUsed : super.bodyUsed);
  }
  override arrayBuffer(): Promise<ArrayBuffer> {
    return this.#incoming ? this.#withBody().arrayBuffer() : super.arrayBuffer();
  }
  override blob(): Promise<Blob> {
    return this.#incoming ? this.#withBody().blob() : super.blob();
  }
  override bytes(): Promise<Uint8Array<ArrayBuffer>> {
    return this.#incoming ? this.#withBody().bytes() : super.bytes();
  }
  override formData(): Promise<FormData> {
    return this.#incoming ? this.#withBody().formData() : super.formData();
  }
  override json(): Promise<unknown> {
    return this.#incoming ? this.#withBody().json() : super.json();
  }
  override text(): Promise<string> {
    return this.#incoming ? this.#withBody().text() : super.text();
  }
  override clone(): Request {
    return this.#incoming ? this.#withBody().clone() : super.clone();
  }
}

/** Whether a request carries a body, without making a Pages API request's web body to find out. */
export function sendsBody(request: Request): boolean {
  return request instanceof PagesApiRequest ? request.sendsBody : request.body !== null;
}
