import type { Transport } from "./transport.js";

/** One event from the live stream: the envelope parsed, and its bytes exactly as webhooks carry them. */
export interface StreamedEvent {
  id: string;
  type: string;
  /** The envelope `{ id, type, createdAt, data }`. */
  event: { id: string; type: string; createdAt: string; data: Record<string, unknown> };
  /** The envelope's JSON as sent (what a webhook delivery's body would be, byte for byte). */
  raw: string;
}

export interface StreamOptions {
  /** Only these event kinds (default: all). */
  events?: string[] | undefined;
  /** Ends the stream. */
  signal?: AbortSignal | undefined;
  /** Called once the server has accepted the stream (before any event). */
  onOpen?: (() => void) | undefined;
  /** Resume after this event (the id of the last one received before a dropped connection): its successors come first. */
  lastEventId?: string | undefined;
}

/** Splits a Server-Sent Events byte stream into messages (the fields this API sends: id, event, data). */
export async function* parseEventStream(body: ReadableStream<Uint8Array>): AsyncGenerator<{ id: string; event: string; data: string }> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let message = { id: "", event: "", data: [] as string[] };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let newline: number;
      while ((newline = buffer.search(/\r?\n/)) !== -1) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + (buffer[newline] === "\r" ? 2 : 1));
        if (line === "") {
          if (message.data.length) yield { id: message.id, event: message.event || "message", data: message.data.join("\n") };
          message = { id: "", event: "", data: [] };
        } else if (!line.startsWith(":")) {
          const colon = line.indexOf(":");
          const field = colon === -1 ? line : line.slice(0, colon);
          const value = colon === -1 ? "" : line.slice(colon + 1).replace(/^ /, "");
          if (field === "id") message.id = value;
          else if (field === "event") message.event = value;
          else if (field === "data") message.data.push(value);
        }
      }
    }
  } finally {
    reader.releaseLock();
  }
}

/** The workspace's live events (GET /api/v1/events/stream). */
export class EventsResource {
  constructor(private readonly t: Transport) {}

  /** Every event of the workspace from now on, until `signal` aborts (then it simply ends). */
  async *stream(options: StreamOptions = {}): AsyncGenerator<StreamedEvent> {
    const response = await this.t.open("/api/v1/events/stream", {
      query: { events: options.events?.join(",") },
      headers: { Accept: "text/event-stream", ...(options.lastEventId ? { "Last-Event-ID": options.lastEventId } : {}) },
      signal: options.signal,
    });
    options.onOpen?.();
    if (!response.body) return;
    try {
      for await (const message of parseEventStream(response.body)) {
        const event = JSON.parse(message.data) as StreamedEvent["event"];
        yield { id: message.id || event.id, type: message.event, event, raw: message.data };
      }
    } catch (err) {
      if (options.signal?.aborted) return;
      throw err;
    }
  }
}
