import { jsonSchema, type ModelMessage, tool, type ToolSet } from "ai";
import type { Principal } from "@/lib/auth/principal";
import { isAppError } from "@/lib/errors";
import { meteredCall } from "./metered";
import { currentProgress } from "./progress";
import type { AiRuntime } from "./provider";
import { settingsOf } from "./settings";

export interface ChatMessage {
  role: "user" | "assistant";
  content: string;
}

/** A tool call the model proposed that changes something irreversible: it waits for the person's yes. */
export interface PendingCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

export interface ChatTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  destructive: boolean;
}

/**
 * How the chat reaches the catalog: the surface passes its tool list and its callTool, so every call runs
 * with the person's own permissions, validation and errors (the domain cannot import a surface).
 */
export interface ChatToolRunner {
  tools: ChatTool[];
  run(name: string, args: Record<string, unknown>): Promise<{ ok: true; result: unknown } | { ok: false; error: { code: string; message: string } }>;
}

export interface ChatAnswer {
  reply: string;
  toolRuns: { name: string; arguments: Record<string, unknown>; ok: boolean; error: string | null }[];
  pending: PendingCall | null;
  cost: { credits: number; reservedCredits: number; inputTokens: number; outputTokens: number; modelCalls: number };
}

/** Model turns per message: enough to look something up and answer, bounded so a loop cannot drain credits. */
export const MAX_STEPS = 4;
/** Tool results are cut to this many characters before the model reads them (a list can be long). */
const MAX_RESULT_CHARS = 8_000;

/**
 * One turn of the assistant chat: the model answers the conversation, calling catalog tools through the
 * runner as it needs; a destructive tool is not run but returned as `pending`, and runs only when the
 * next turn passes it back as `confirmed`. Each model step is one metered call.
 */
export async function assistantChat(
  principal: Principal,
  input: { messages: ChatMessage[]; confirmed?: PendingCall },
  runner: ChatToolRunner,
  runtime?: AiRuntime | null,
): Promise<ChatAnswer> {
  const { brandVoice, namingConvention } = await settingsOf(principal.workspaceId);
  const system = [
    `You are Adloom's assistant for the workspace "${principal.workspace?.name ?? ""}". Answer briefly and only from what the tools return; say when you do not know.`,
    "Call tools to look things up. Tools that delete, activate or change budgets wait for the person's confirmation: propose them, do not insist.",
    brandVoice ? `Brand voice: ${brandVoice}` : "",
    namingConvention ? `Naming convention: ${namingConvention}` : "",
  ]
    .filter(Boolean)
    .join("\n");
  const byName = new Map(runner.tools.map((t) => [t.name, t]));
  const tools: ToolSet = Object.fromEntries(
    runner.tools.map((t) => [t.name, tool({ description: t.description, inputSchema: jsonSchema(t.inputSchema as never) })]),
  );
  const messages: ModelMessage[] = input.messages.map((m) => ({ role: m.role, content: m.content }));
  const answer: ChatAnswer = {
    reply: "",
    toolRuns: [],
    pending: null,
    cost: { credits: 0, reservedCredits: 0, inputTokens: 0, outputTokens: 0, modelCalls: 0 },
  };
  const progress = currentProgress();

  const runAndRecord = async (call: PendingCall) => {
    progress?.({ type: "status", message: `Running ${call.name}` });
    const outcome = await runner.run(call.name, call.arguments);
    answer.toolRuns.push({ name: call.name, arguments: call.arguments, ok: outcome.ok, error: outcome.ok ? null : outcome.error.message });
    messages.push({ role: "assistant", content: [{ type: "tool-call", toolCallId: call.id, toolName: call.name, input: call.arguments }] });
    const value = JSON.stringify(outcome.ok ? outcome.result : { error: outcome.error });
    messages.push({
      role: "tool",
      content: [{ type: "tool-result", toolCallId: call.id, toolName: call.name, output: { type: "text", value: value.slice(0, MAX_RESULT_CHARS) } }],
    });
  };

  if (input.confirmed && byName.has(input.confirmed.name)) await runAndRecord(input.confirmed);

  try {
    for (let step = 0; step < MAX_STEPS; step++) {
      const last = step === MAX_STEPS - 1;
      const turn = await meteredCall(principal, { feature: "assistant_chat", system, messages, maxOutputTokens: 800, ...(last ? {} : { tools }) }, runtime);
      answer.cost.credits += turn.cost.credits;
      answer.cost.reservedCredits += turn.cost.reservedCredits;
      answer.cost.inputTokens += turn.cost.inputTokens;
      answer.cost.outputTokens += turn.cost.outputTokens;
      answer.cost.modelCalls++;
      if (turn.text) answer.reply += (answer.reply ? "\n\n" : "") + turn.text.trim();
      if (!turn.toolCalls.length) break;
      for (const call of turn.toolCalls) {
        const proposed: PendingCall = { id: call.toolCallId, name: call.toolName, arguments: (call.input ?? {}) as Record<string, unknown> };
        if (byName.get(call.toolName)?.destructive) {
          answer.pending = proposed;
          progress?.({ type: "status", message: `${call.toolName} waits for your confirmation` });
          return answer;
        }
        await runAndRecord(proposed);
      }
    }
  } catch (err) {
    // A tool that already ran (a confirmed deletion, a lookup) happened: the answer says so instead of an error
    // that would hide it and invite the person to ask again. The failed call itself charged nothing.
    if (!answer.toolRuns.length || !isAppError(err)) throw err;
    const ran = answer.toolRuns.map((r) => `${r.name}${r.ok ? "" : " (failed)"}`).join(", ");
    answer.reply += `${answer.reply ? "\n\n" : ""}Ran ${ran}, but the assistant could not answer after it: ${err.message}`;
  }
  return answer;
}
