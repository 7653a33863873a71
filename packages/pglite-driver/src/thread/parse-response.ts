import { dataRowMessage, parseBackendMessages, type BackendMessage } from "../pglite-internals";

const DATA_ROW = 0x44; // 'D'
const HEADER_BYTES = 5; // type byte + int32 length (which counts itself, not the type byte)
const utf8 = new TextDecoder();

/**
 * Parses a complete protocol response (what PGlite answers to one call) into backend messages.
 *
 * Data rows, by far the most numerous messages, are decoded here straight from the response bytes;
 * PGlite's parser copies every field into a fresh buffer before decoding it, which was an eighth of
 * the CPU of a 100-row list request. Every other message goes through PGlite's own parser, so errors,
 * notices and notifications are its own classes. A data row comes out as PGlite's does: `name`
 * "dataRow", `length`, `fieldCount`, `fields` (text, or null for SQL NULL).
 */
export function parseResponse(data: Uint8Array, onMessage: (message: BackendMessage) => void): void {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  let others = -1; // start of a run of messages left to PGlite's parser
  let offset = 0;
  while (offset + HEADER_BYTES <= data.byteLength) {
    const type = data[offset]!;
    const length = view.getInt32(offset + 1);
    const end = offset + 1 + length;
    if (length < 4 || end > data.byteLength) throw new Error("Truncated or malformed database response");
    if (type === DATA_ROW) {
      if (others >= 0) {
        parseWithPglite(data.subarray(others, offset), onMessage);
        others = -1;
      }
      onMessage(dataRow(data, view, offset + HEADER_BYTES, length));
    } else if (others < 0) {
      others = offset;
    }
    offset = end;
  }
  if (offset !== data.byteLength) throw new Error("Truncated or malformed database response");
  if (others >= 0) parseWithPglite(data.subarray(others, offset), onMessage);
}

function parseWithPglite(bytes: Uint8Array, onMessage: (message: BackendMessage) => void): void {
  parseBackendMessages(bytes, onMessage);
}

function dataRow(data: Uint8Array, view: DataView, start: number, length: number): BackendMessage {
  const fieldCount = view.getInt16(start);
  const fields: (string | null)[] = new Array(fieldCount);
  let at = start + 2;
  for (let i = 0; i < fieldCount; i++) {
    const size = view.getInt32(at);
    at += 4;
    if (size === -1) {
      fields[i] = null;
    } else {
      fields[i] = utf8.decode(data.subarray(at, at + size));
      at += size;
    }
  }
  return dataRowMessage(length, fields);
}
