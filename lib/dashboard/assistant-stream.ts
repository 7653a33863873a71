import { z } from "zod";
import { assistantChat, type ChatToolRunner } from "@/lib/ai/chat";
import { type ProgressEvent, withProgress } from "@/lib/ai/progress";
import { authorize } from "@/lib/auth/authorize";
import type { Principal } from "@/lib/auth/principal";
import { AppError, describeZodError, isAppError } from "@/lib/errors";
import { runPipeline } from "@/lib/http/pipeline";
import { callTool } from "@/lib/tools/call";
import { catalog, findTool } from "@/lib/tools/catalog";
import { planStatus } from "@/lib/workspaces/plan";

const Body = z.discriminatedUnion("mode", [
  z.strictObject({
    mode: z.literal("chat"),
    messages: z
      .array(z.strictObject({ role: z.enum(["user", "assistant"]), content: z.string().min(1).max(4000) }))
      .min(1)
      .max(40),
    confirmed: z.strictObject({ id: z.string().max(200), name: z.string().max(100), arguments: z.record(z.string(), z.unknown()) }).optional(),
  }),
  z.strictObject({ mode: z.literal("tool"), name: z.string().max(100), arguments: z.record(z.string(), z.unknown()) }),
]);

/** OpenAI and Anthropic accept at most 128 tools in one request. */
const MAX_CHAT_TOOLS = 128;

/** The catalog tools the person may call (their role and, for keys, scopes), minus the AI tools themselves. */
function chatRunner(principal: Principal): ChatToolRunner {
  const permitted = catalog().tools.filter((t) => {
    const def = findTool(t.name)!;
    if (def.category === "ai") return false;
    try {
      authorize(principal, def.capability);
      return true;
    } catch {
      return false;
    }
  });
  // Reads first, so a cut keeps the lookups.
  permitted.sort((a, b) => Number(b.readOnly) - Number(a.readOnly));
  return {
    tools: permitted
      .slice(0, MAX_CHAT_TOOLS)
      .map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema, destructive: t.destructive })),
    async run(name, args) {
      const outcome = await callTool(principal, name, args);
      return outcome.ok ? { ok: true, result: outcome.body.result } : { ok: false, error: outcome.body.error };
    },
  };
}

/**
 * The Assistant page's streamed answers, as newline-delimited JSON: progress (`status`), the model's text as
 * it arrives (`text`), what the call cost (`cost`), then `done` with the result or `error` with the envelope.
 * Generating tools run through callTool (the same checks as POST /api/v1/tools/{name}); the chat calls
 * catalog tools the same way, as the signed-in person.
 */
export async function POST(request: Request): Promise<Response> {
  return runPipeline(request, { allowSession: true, plan: "defer" }, async ({ principal }) => {
    if (!planStatus(principal.workspace).dashboardAccess) throw new AppError("subscription_required", "Choose a plan to use the assistant");
    // A JSON body cannot be sent across origins without a preflight: this keeps other sites from driving a session.
    if (!request.headers.get("content-type")?.startsWith("application/json")) throw new AppError("invalid_request", "Send the body as application/json");
    const parsed = Body.safeParse(await request.json().catch(() => undefined));
    if (!parsed.success) throw new AppError("invalid_request", describeZodError(parsed.error));
    const body = parsed.data;
    if (body.mode === "tool" && findTool(body.name)?.category !== "ai") throw new AppError("not_found", `No assistant tool "${body.name}"`);
    // The chat spends credits as the AI tools do: the same capability (callTool checks it for a tool).
    if (body.mode === "chat") authorize(principal, "ai.use");

    const encoder = new TextEncoder();
    const stream = new ReadableStream<Uint8Array>({
      async start(controller) {
        let readerGone = false;
        const send = (line: unknown) => {
          if (readerGone) return;
          try {
            controller.enqueue(encoder.encode(`${JSON.stringify(line)}\n`));
          } catch {
            // The page went away (closed tab, aborted request): the model's answer still arrives and is charged
            // for what it used; only nobody reads it.
            readerGone = true;
          }
        };
        const sink = (event: ProgressEvent) => send(event);
        try {
          if (body.mode === "tool") {
            const outcome = await withProgress(sink, () => callTool(principal, body.name, body.arguments));
            send(outcome.ok ? { type: "done", result: outcome.body.result } : { type: "error", error: outcome.body.error });
          } else {
            sink({ type: "status", message: "Thinking" });
            const result = await withProgress(sink, () =>
              assistantChat(principal, { messages: body.messages, confirmed: body.confirmed }, chatRunner(principal)),
            );
            send({ type: "done", result });
          }
        } catch (err) {
          send({ type: "error", error: isAppError(err) ? err.toBody().error : { code: "internal_error", message: "The assistant failed unexpectedly" } });
        } finally {
          try {
            controller.close();
          } catch {
            // Already closed by a reader that left.
          }
        }
      },
    });
    return new Response(stream, {
      status: 200,
      headers: { "Content-Type": "application/x-ndjson; charset=utf-8", "Cache-Control": "no-store", "X-Accel-Buffering": "no" },
    });
  });
}
