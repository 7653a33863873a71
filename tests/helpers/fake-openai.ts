import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local stand-in for an OpenAI-compatible server (OpenAI, vLLM, llama.cpp, Ollama), written from OpenAI's
 * API reference for POST /v1/chat/completions: a JSON chat.completion, or with `stream: true` server-sent
 * chat.completion.chunk events ending in `data: [DONE]`, with a usage chunk (empty `choices`) before it when
 * `stream_options.include_usage` is set; tool calls as `message.tool_calls` / `delta.tool_calls`; failures as
 * an HTTP error status with `{ error: { message, type, code } }`.
 */
export interface FakeReply {
  content?: string;
  toolCalls?: { id?: string; name: string; arguments: unknown }[];
  usage?: { prompt_tokens: number; completion_tokens: number };
  /** Answer with this HTTP status and an OpenAI error body instead. */
  error?: { status: number; message: string; type?: string };
  delayMs?: number;
}

export interface FakeRequest {
  headers: http.IncomingHttpHeaders;
  body: any;
}

export interface FakeOpenAI {
  /** The base URL to configure (AI_BASE_URL), ending in /v1. */
  baseUrl: string;
  requests: FakeRequest[];
  /** Every usage the fake reported, in answer order (what the ledger must have charged for). */
  reportedUsage: { prompt_tokens: number; completion_tokens: number }[];
  /** What the next requests are answered with. */
  respond(handler: (request: FakeRequest) => FakeReply): void;
  close(): Promise<void>;
}

export async function startFakeOpenAI(): Promise<FakeOpenAI> {
  let handler: (request: FakeRequest) => FakeReply = () => ({ content: "ok", usage: { prompt_tokens: 10, completion_tokens: 2 } });
  const requests: FakeRequest[] = [];
  const reportedUsage: FakeOpenAI["reportedUsage"] = [];
  let serial = 0;

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method !== "POST" || req.url !== "/v1/chat/completions") {
      res
        .writeHead(404, { "Content-Type": "application/json" })
        .end(JSON.stringify({ error: { message: `Unknown path ${req.url}`, type: "invalid_request_error", code: null } }));
      return;
    }
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    const request = { headers: req.headers, body };
    requests.push(request);
    const reply = handler(request);
    if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
    if (reply.error) {
      res
        .writeHead(reply.error.status, { "Content-Type": "application/json" })
        .end(JSON.stringify({ error: { message: reply.error.message, type: reply.error.type ?? "server_error", param: null, code: null } }));
      return;
    }
    const id = `chatcmpl-${++serial}`;
    const created = Math.floor(Date.now() / 1000);
    const usage = reply.usage ?? { prompt_tokens: 10, completion_tokens: 5 };
    const toolCalls = (reply.toolCalls ?? []).map((t, i) => ({
      id: t.id ?? `call_${serial}_${i}`,
      type: "function",
      function: { name: t.name, arguments: JSON.stringify(t.arguments) },
    }));
    const finishReason = toolCalls.length ? "tool_calls" : "stop";
    const fullUsage = { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens };

    if (!body.stream) {
      reportedUsage.push(usage);
      res.writeHead(200, { "Content-Type": "application/json" }).end(
        JSON.stringify({
          id,
          object: "chat.completion",
          created,
          model: body.model,
          choices: [
            {
              index: 0,
              message: { role: "assistant", content: reply.content ?? null, ...(toolCalls.length ? { tool_calls: toolCalls } : {}) },
              logprobs: null,
              finish_reason: finishReason,
            },
          ],
          usage: fullUsage,
        }),
      );
      return;
    }
    res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache", Connection: "keep-alive" });
    const send = (choices: unknown[], extra: Record<string, unknown> = {}) =>
      res.write(`data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model: body.model, choices, ...extra })}\n\n`);
    send([{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }]);
    // The text in a few pieces, as a server streams tokens.
    const text = reply.content ?? "";
    for (const piece of text.match(/.{1,12}/gs) ?? []) {
      send([{ index: 0, delta: { content: piece }, finish_reason: null }]);
      await new Promise((r) => setTimeout(r, 5));
    }
    toolCalls.forEach((call, index) => {
      send([
        {
          index: 0,
          delta: { tool_calls: [{ index, id: call.id, type: "function", function: { name: call.function.name, arguments: "" } }] },
          finish_reason: null,
        },
      ]);
      send([{ index: 0, delta: { tool_calls: [{ index, function: { arguments: call.function.arguments } }] }, finish_reason: null }]);
    });
    send([{ index: 0, delta: {}, finish_reason: finishReason }]);
    if (body.stream_options?.include_usage) {
      reportedUsage.push(usage);
      send([], { usage: fullUsage });
    }
    res.end("data: [DONE]\n\n");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    reportedUsage,
    respond(next) {
      handler = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
