import type { Principal } from "@/lib/auth/principal";
import { getDb } from "@/lib/db/client";

/** How often a stream looks for new events, and how far back it looks again (events are stamped before their insert commits). */
const POLL_MS = 400;
const LOOKBACK_MS = 5_000;
const HEARTBEAT_MS = 15_000;
/** Events read per query; a poll reads on, page by page, while pages come back full. */
const PAGE = 500;
/** How often the stream checks that its credentials still hold (a revoked key or a removed member stops it). */
export const ACCESS_RECHECK_MS = 5_000;

const encoder = new TextEncoder();

/** One Server-Sent Events frame: the event id, its type, and the envelope exactly as webhooks send it. */
function frame(event: { id: string; type: string; body: string }): Uint8Array {
  return encoder.encode(`id: ${event.id}\nevent: ${event.type}\ndata: ${event.body.replace(/\n/g, "\ndata: ")}\n\n`);
}

/**
 * The workspace's events from now on, live, as a Server-Sent Events stream (what
 * `adloom webhooks listen` forwards). Reads the stored events, so it sees every event of
 * the workspace whichever instance emitted it. With `resumeAfter` (the stored event a reconnecting
 * client last received: its Last-Event-ID), it starts with the events after that one. Ends when `signal`
 * aborts, or once `stillAuthorized` (asked every few seconds) says the credentials no longer grant it.
 */
export function workspaceEventStream(
  principal: Principal,
  options: {
    events: string[] | null;
    signal: AbortSignal;
    stillAuthorized: () => Promise<boolean>;
    resumeAfter?: { id: string; createdAt: Date } | null;
  },
): ReadableStream<Uint8Array> {
  const resumeAfter = options.resumeAfter ?? null;
  const connectedAt = resumeAfter?.createdAt ?? new Date();
  // Events at the resume point's instant that sort at or before it were the client's already.
  const alreadySent = (row: { id: string; createdAt: Date }) =>
    resumeAfter !== null && row.createdAt.getTime() === resumeAfter.createdAt.getTime() && row.id <= resumeAfter.id;
  let checkedAt = Date.now();
  const seen = new Map<string, number>(); // event id -> createdAt ms, for the lookback window
  let newest = connectedAt.getTime();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let lastWrite = Date.now();

  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(`retry: 2000\n: ${resumeAfter ? `resumed after ${resumeAfter.id}` : `connected ${connectedAt.toISOString()}`}\n\n`));
      const stop = () => {
        clearTimeout(timer);
        try {
          controller.close();
        } catch {
          /* already closed */
        }
      };
      options.signal.addEventListener("abort", stop, { once: true });
      const poll = async () => {
        if (options.signal.aborted) return;
        try {
          if (Date.now() - checkedAt >= ACCESS_RECHECK_MS) {
            checkedAt = Date.now();
            // Ended, not errored: a client that connects again is answered 401 or 403 with the reason.
            if (!(await options.stillAuthorized())) {
              controller.enqueue(encoder.encode(": access ended\n\n"));
              stop();
              return;
            }
          }
          // The whole lookback window, in pages: with one page, 500 events already sent within it came back on
          // every poll and the stream never reached the next one.
          const floor = new Date(Math.max(connectedAt.getTime(), newest - LOOKBACK_MS));
          let after: { createdAt: Date; id: string } | null = null;
          for (;;) {
            const rows: { id: string; type: string; body: string; createdAt: Date }[] = await getDb().webhookEvent.findMany({
              where: {
                workspaceId: principal.workspaceId,
                ...(after
                  ? { OR: [{ createdAt: { gt: after.createdAt } }, { createdAt: after.createdAt, id: { gt: after.id } }] }
                  : { createdAt: { gte: floor } }),
                ...(options.events ? { type: { in: options.events } } : {}),
              },
              orderBy: [{ createdAt: "asc" }, { id: "asc" }],
              select: { id: true, type: true, body: true, createdAt: true },
              take: PAGE,
            });
            for (const row of rows) {
              if (seen.has(row.id) || alreadySent(row)) continue;
              seen.set(row.id, row.createdAt.getTime());
              newest = Math.max(newest, row.createdAt.getTime());
              controller.enqueue(frame(row));
              lastWrite = Date.now();
            }
            if (rows.length < PAGE || options.signal.aborted) break;
            after = rows[PAGE - 1]!;
          }
          for (const [id, at] of seen) if (at < newest - 2 * LOOKBACK_MS) seen.delete(id);
          if (Date.now() - lastWrite >= HEARTBEAT_MS) {
            controller.enqueue(encoder.encode(": ping\n\n"));
            lastWrite = Date.now();
          }
        } catch (err) {
          if (options.signal.aborted) return;
          controller.error(err);
          return;
        }
        timer = setTimeout(poll, POLL_MS);
      };
      void poll();
    },
    cancel() {
      clearTimeout(timer);
    },
  });
}

/** The stored event a reconnecting client names in Last-Event-ID, if it is one of the workspace's; null otherwise. */
export async function resumePoint(workspaceId: string, lastEventId: string | null): Promise<{ id: string; createdAt: Date } | null> {
  if (!lastEventId || lastEventId.length > 100) return null;
  return getDb().webhookEvent.findFirst({ where: { id: lastEventId, workspaceId }, select: { id: true, createdAt: true } });
}
