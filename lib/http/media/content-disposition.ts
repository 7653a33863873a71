const MAX_NAME_LENGTH = 255;

/** Characters RFC 8187 (ex-5987) allows unescaped in `filename*`; everything else is %-encoded UTF-8. */
function encodeExtValue(value: string): string {
  return encodeURIComponent(value).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * `Content-Disposition: attachment` for a caller-chosen name (RFC 6266): a plain ASCII
 * `filename` for old clients and the exact UTF-8 name in `filename*`. Control characters
 * (header injection), quotes, backslashes and path separators never reach the header.
 */
export function attachmentDisposition(requestedName: string, fallbackName = "download"): string {
  const name =
    Array.from(
      requestedName
        .normalize("NFC")
        // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
        .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, "")
        .replace(/[\\/]/g, "_")
        .trim(),
    )
      .slice(0, MAX_NAME_LENGTH)
      .join("") || fallbackName;
  const ascii = name.replace(/[^\x20-\x7e]/g, "_").replace(/["%]/g, "_");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeExtValue(name)}`;
}
