import type { ClientHost } from "@adloom/job-runner";
import { getDb, sqlOf } from "@/lib/db/client";
import { recordEvents } from "../embedded-store/event-store";
import { getEmbeddedSigningKey } from "../signing-key";
import { jobSignals } from "./signals";

/** What the Inngest client's embedded fetch needs from the app: the signing key, the event table, the signals. */
export const embeddedClientHost: ClientHost = {
  signingKey: () => getEmbeddedSigningKey(),
  recordEvents: (events, now) => recordEvents(sqlOf(getDb()), events, now),
  signals: jobSignals,
};
