import type { ClientOptions } from "inngest";
import { getDb } from "@/lib/db/client";
import { getEmbeddedSigningKey } from "../signing-key";
import { createEmbeddedFetch } from "./event-api";
import { EMBEDDED_ORIGIN } from "./inngest-internals";

/**
 * Inngest client options for embedded mode: cloud mode (so serve() verifies signatures)
 * with the runner's signing key, and the event API pointed at an in-process fetch that
 * records events in our database. The key is a getter so it is only read (or created)
 * when a request is handled, not when a bundle merely imports the client.
 */
export function embeddedClientOptions(id: string): ClientOptions {
  return {
    id,
    isDev: false,
    get signingKey() {
      return getEmbeddedSigningKey();
    },
    eventKey: "embedded",
    baseUrl: EMBEDDED_ORIGIN,
    fetch: createEmbeddedFetch(getDb),
  };
}
