import { z } from "zod";
import { EventTypeSchema } from "@/lib/events/types";
import { defineOperation } from "@/lib/http/operation";
import { resumePoint, workspaceEventStream } from "@/lib/webhooks/event-stream";

const TAG = "Webhooks";

/** A REST-only operation (not a tool): its answer is a live stream, not a JSON result. */
export const streamEvents = defineOperation({
  method: "GET",
  path: "/api/v1/events/stream",
  operationId: "streamEvents",
  summary: "The workspace's events, live (Server-Sent Events)",
  description:
    "Streams every event of the key's workspace from the moment of connecting, as `text/event-stream`: one message per event with " +
    "`id:` the event id, `event:` its type and `data:` the envelope exactly as webhook deliveries carry it. Comment lines keep the " +
    "connection alive. A client that reconnects with `Last-Event-ID` (the standard Server-Sent Events header: the id of the last event it " +
    "received) gets the events after that one first; an id the workspace does not have (or no longer keeps: events are kept 7 days) " +
    "starts the stream from now. The stream ends once its credentials stop granting it (a revoked key, a removed member, a lapsed plan). " +
    "Independent of the webhook endpoint and its subscription; `adloom webhooks listen` forwards it to a local URL.",
  tag: TAG,
  capability: "webhooks.read",
  query: z.object({
    events: z
      .string()
      .max(2000)
      .optional()
      .describe("Comma-separated event kinds to receive (default: all)")
      .refine((v) => !v || v.split(",").every((k) => EventTypeSchema.safeParse(k.trim()).success), "Unknown event kind"),
  }),
  success: { status: 200, description: "A `text/event-stream` of the workspace's events" },
  handler: async ({ principal, query, request, stillAuthorized }) =>
    new Response(
      workspaceEventStream(principal, {
        events: query.events ? query.events.split(",").map((k) => k.trim()) : null,
        signal: request.signal,
        stillAuthorized,
        resumeAfter: await resumePoint(principal.workspaceId, request.headers.get("last-event-id")),
      }),
      // no-transform keeps compression (which would hold frames back) off the stream.
      { status: 200, headers: { "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-cache, no-transform", "X-Accel-Buffering": "no" } },
    ),
});
