import { APICallError, generateText, type ModelMessage, streamText, type ToolSet, type TypedToolCall } from "ai";
import type { Principal } from "@/lib/auth/principal";
import { AppError, isAppError } from "@/lib/errors";
import { captureCredits, releaseCredits, reserveCredits } from "./credits";
import { creditsFor, worstCaseInputTokens } from "./prices";
import { currentProgress } from "./progress";
import { type AiRuntime, requireRuntime } from "./provider";

/** What a model call cost; every answer of a generating tool carries it. */
export interface AiCost {
  /** Credits charged: from the provider's token usage and the model's price. */
  credits: number;
  /** What was held back before the call (the worst case); the difference returned to the balance. */
  reservedCredits: number;
  inputTokens: number;
  outputTokens: number;
  model: string;
}

export interface ModelRequest {
  /** The tool or page spending the credits (usage is shown per feature). */
  feature: string;
  system: string;
  messages: ModelMessage[];
  maxOutputTokens: number;
  /** Tools the model may call (the assistant chat); it only proposes calls, the caller runs them. */
  tools?: ToolSet;
}

export interface ModelAnswer {
  text: string;
  toolCalls: TypedToolCall<ToolSet>[];
  cost: AiCost;
}

/** A model call can take this long before it is abandoned (and its reservation returned). */
const CALL_TIMEOUT_MS = 120_000;

/**
 * One model call, metered: reserve the worst case, call, charge the actual usage and return the rest, or
 * return it all when the call fails. Streams its text to the caller's progress listener when there is one.
 */
export async function meteredCall(principal: Principal, request: ModelRequest, runtime?: AiRuntime | null): Promise<ModelAnswer> {
  const ai = requireRuntime(runtime === undefined ? undefined : runtime);
  const promptTexts = [request.system, ...request.messages.map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)))];
  if (request.tools) promptTexts.push(JSON.stringify(Object.entries(request.tools).map(([name, t]) => [name, t.description, t.inputSchema])));
  const worstInput = worstCaseInputTokens(promptTexts);
  const reservedCredits = Math.max(1, creditsFor(ai.price, { input: worstInput, output: request.maxOutputTokens }));
  const progress = currentProgress();
  progress?.({ type: "status", message: `Reserved up to ${reservedCredits} credits; asking ${ai.modelId}` });
  const reservation = await reserveCredits({
    workspaceId: principal.workspaceId,
    userId: principal.userId,
    feature: request.feature,
    provider: ai.provider,
    model: ai.modelId,
    credits: reservedCredits,
  });
  try {
    const settings = {
      model: ai.model,
      system: request.system,
      messages: request.messages,
      maxOutputTokens: request.maxOutputTokens,
      tools: request.tools,
      maxRetries: 0,
      abortSignal: AbortSignal.timeout(CALL_TIMEOUT_MS),
    };
    let text: string;
    let toolCalls: TypedToolCall<ToolSet>[];
    let usage: { inputTokens: number | undefined; outputTokens: number | undefined };
    if (progress) {
      const result = streamText({ ...settings, onError: () => undefined });
      text = "";
      for await (const part of result.fullStream) {
        if (part.type === "text-delta") {
          text += part.text;
          progress({ type: "text", delta: part.text });
        } else if (part.type === "error") {
          throw part.error;
        }
      }
      toolCalls = await result.toolCalls;
      usage = await result.usage;
    } else {
      const result = await generateText(settings);
      ({ text, toolCalls, usage } = result);
    }
    // A server that reports no usage is charged by upper bounds: the prompt's worst case and the answer's bytes.
    const inputTokens = usage.inputTokens ?? worstInput;
    const outputTokens = usage.outputTokens ?? worstCaseInputTokens([text, JSON.stringify(toolCalls)]);
    const credits = await captureCredits(principal.workspaceId, reservation, {
      credits: creditsFor(ai.price, { input: inputTokens, output: outputTokens }),
      inputTokens,
      outputTokens,
    });
    progress?.({ type: "cost", credits, reservedCredits });
    return { text, toolCalls, cost: { credits, reservedCredits, inputTokens, outputTokens, model: ai.modelId } };
  } catch (err) {
    const refusal = providerFailure(err);
    await releaseCredits(principal.workspaceId, reservation, refusal.message);
    throw refusal;
  }
}

/** A provider's failure as the tool error the caller sees (the reservation is released either way). */
function providerFailure(err: unknown): AppError {
  if (isAppError(err)) return err;
  if (APICallError.isInstance(err)) {
    if (err.statusCode === 429) return new AppError("upstream_busy", "The AI provider is rate limiting; retry shortly (no credits were charged)");
    const detail = err.statusCode ? `answered ${err.statusCode}` : "could not be reached";
    return new AppError("upstream_error", `The AI provider ${detail}: ${err.message.slice(0, 300)} (no credits were charged)`);
  }
  if (err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError")) {
    return new AppError("upstream_error", `The AI provider did not answer within ${CALL_TIMEOUT_MS / 1000} s (no credits were charged)`);
  }
  const message = err instanceof Error ? err.message : String(err);
  return new AppError("upstream_error", `The AI provider call failed: ${message.slice(0, 300)} (no credits were charged)`);
}
