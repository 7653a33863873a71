import { badRequest } from "@/lib/errors";
import { BodyDeadline, jsonBodyDeadlines, type BodyDeadlines } from "./body-deadline";
import { arrivedRequestBody } from "./node-request-body";
import { sendsBody } from "./pages-api-request";

export const JSON_BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * Reads a JSON request body as text, refusing bodies over the limit without buffering them whole,
 * and bodies that stall or drip (idle and total deadlines) instead of waiting on them forever.
 */
export async function readBodyText(request: Request, limit = JSON_BODY_LIMIT_BYTES, deadlines: BodyDeadlines = jsonBodyDeadlines()): Promise<string> {
  if (!sendsBody(request)) return "";
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > limit) throw badRequest(`Request body exceeds ${limit} bytes`);
  const arrived = arrivedRequestBody(request);
  if (arrived) {
    if (arrived.byteLength > limit) throw badRequest(`Request body exceeds ${limit} bytes`);
    return arrived.toString("utf8");
  }
  const reader = request.body!.getReader();
  let expired: ((message: string) => void) | null = null;
  const expiry = new Promise<never>((_, reject) => (expired = (message) => reject(badRequest(message))));
  expiry.catch(() => undefined);
  const deadline = new BodyDeadline(deadlines, (message) => expired!(message));
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await Promise.race([reader.read(), expiry]);
      if (done) break;
      deadline.touch();
      size += value.byteLength;
      if (size > limit) throw badRequest(`Request body exceeds ${limit} bytes`);
      chunks.push(value);
    }
  } catch (err) {
    void reader.cancel().catch(() => undefined);
    throw err;
  } finally {
    deadline.stop();
  }
  return Buffer.concat(chunks).toString("utf8");
}

export function parseJsonText(text: string): unknown {
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw badRequest("Request body is not valid JSON");
  }
}
