import { EMBEDDED_ORIGIN, eventApiReply, isEventApiRequest } from "./inngest-internals";
import type { JobSignals } from "./signals";
import type { SendEventInput } from "./types";

/** What the client's fetch needs from the host: where events are recorded, and the process's signals. */
export interface EventApiHost {
  recordEvents(events: SendEventInput[], now: Date): Promise<string[]>;
  signals: () => JobSignals;
}

/**
 * The Inngest client's `fetch` in embedded mode. The client's base URL points at
 * EMBEDDED_ORIGIN, so `inngest.send()` and `step.sendEvent()` arrive here as
 * `POST /e/<key>` and are recorded in the host's store instead of leaving the process.
 * Step checkpoints go to the drive waiting for them (signals.ts). Other calls to that origin (sync, API) get 404; every other URL goes to the real fetch.
 */
export function createEmbeddedFetch(host: EventApiHost): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (url.origin !== EMBEDDED_ORIGIN) return globalThis.fetch(input, init);
    const checkpoint = await host.signals().handleCheckpoint(url, request);
    if (checkpoint) return checkpoint;
    if (!isEventApiRequest(url, request.method)) {
      return Response.json({ error: "Not available with the embedded job runner" }, { status: 404 });
    }
    const body = (await request.json()) as SendEventInput | SendEventInput[];
    const ids = await host.recordEvents(Array.isArray(body) ? body : [body], new Date());
    host.signals().wakeRunners();
    return eventApiReply(ids);
  };
}
