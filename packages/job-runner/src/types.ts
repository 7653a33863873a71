/** Shapes shared by the embedded runner's modules. */

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/** An event as functions receive it. */
export interface JobEventPayload {
  id: string;
  name: string;
  data: JsonObject;
  ts: number;
}

/** What a caller sends: `id` is optional and deduplicates. */
export interface SendEventInput {
  name: string;
  data?: Record<string, unknown>;
  id?: string;
  ts?: number;
}

/** A memoized step outcome, in the executor protocol's shape (defined with the rest of that protocol). */
export type { StepResult } from "./inngest-internals";

/** A serialized error as the SDK sends it (`{ name, message, stack }`). */
export type SerializedError = JsonObject;

export type Clock = () => Date;
