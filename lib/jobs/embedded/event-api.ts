import { sqlOf, type Db } from "@/lib/db/client";
import { handleCheckpoint } from "./checkpoint";
import { recordEvents } from "./event-store";
import { EMBEDDED_ORIGIN, eventApiReply, isEventApiRequest } from "./inngest-internals";
import type { SendEventInput } from "./types";
import { wakeRunners } from "./wake";

/**
 * The Inngest client's `fetch` in embedded mode. The client's base URL points at
 * EMBEDDED_ORIGIN, so `inngest.send()` and `step.sendEvent()` arrive here as
 * `POST /e/<key>` and are recorded in the database instead of leaving the process.
 * Step checkpoints go to the drive waiting for them (checkpoint.ts). Other calls to that origin (sync, API) get 404; every other URL goes to the real fetch.
 */
export function createEmbeddedFetch(getDb: () => Db): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (url.origin !== EMBEDDED_ORIGIN) return globalThis.fetch(input, init);
    const checkpoint = await handleCheckpoint(url, request);
    if (checkpoint) return checkpoint;
    if (!isEventApiRequest(url, request.method)) {
      return Response.json({ error: "Not available with the embedded job runner" }, { status: 404 });
    }
    const body = (await request.json()) as SendEventInput | SendEventInput[];
    const ids = await recordEvents(sqlOf(getDb()), Array.isArray(body) ? body : [body], new Date());
    wakeRunners();
    return eventApiReply(ids);
  };
}
