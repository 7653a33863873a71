import type { ClientOptions } from "inngest";
import { createEmbeddedFetch, type EventApiHost } from "./event-api";
import { EMBEDDED_ORIGIN } from "./inngest-internals";

export interface ClientHost extends EventApiHost {
  /** The runner's signing key (read when a request is handled). */
  signingKey(): string;
}

/**
 * Inngest client options for embedded mode: cloud mode (so serve() verifies signatures)
 * with the runner's signing key, and the event API pointed at an in-process fetch that
 * records events in the host's store. The key is a getter so it is only read (or created)
 * when a request is handled, not when a bundle merely imports the client.
 */
export function embeddedClientOptions(id: string, host: ClientHost): ClientOptions {
  return {
    id,
    isDev: false,
    get signingKey() {
      return host.signingKey();
    },
    eventKey: "embedded",
    baseUrl: EMBEDDED_ORIGIN,
    fetch: createEmbeddedFetch(host),
  };
}
