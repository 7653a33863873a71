import { badRequest } from "@/lib/errors";

export const JSON_BODY_LIMIT_BYTES = 1024 * 1024;

/** Reads a JSON request body as text, refusing bodies over the limit without buffering them whole. */
export async function readBodyText(request: Request, limit = JSON_BODY_LIMIT_BYTES): Promise<string> {
  if (!request.body) return "";
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > limit) throw badRequest(`Request body exceeds ${limit} bytes`);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw badRequest(`Request body exceeds ${limit} bytes`);
    }
    chunks.push(value);
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
