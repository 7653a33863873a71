// The HTTP server's own limits, shared by the server start (lib/server/http-edge.mjs, plain JavaScript
// loaded before Next) and the configuration (lib/config.ts validates the same names with these values).
export const HTTP_EDGE_DEFAULTS = {
  /** The whole request head must arrive within this (slow-drip headers are cut off). */
  HTTP_HEADERS_TIMEOUT_MS: 15_000,
  /** The whole request, body included: 25 videos of 200 MB at ~1.5 MB/s fit in the hour. */
  HTTP_REQUEST_TIMEOUT_MS: 3_600_000,
  /** A connection with no bytes either way for this long is closed. */
  HTTP_IDLE_TIMEOUT_MS: 60_000,
  /**
   * The request head (request line and headers, CRLFs included) may be this large; a larger one is
   * answered 431 (Node's own default, stated here so the server and its documentation agree).
   */
  HTTP_MAX_HEADER_BYTES: 16_384,
};
