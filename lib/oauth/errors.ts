/** RFC 6749 / 7591 / 8707 error codes this server answers with. */
export type OAuthErrorCode =
  | "invalid_request"
  | "invalid_client"
  | "invalid_grant"
  | "unauthorized_client"
  | "unsupported_grant_type"
  | "unsupported_response_type"
  | "invalid_scope"
  | "invalid_target"
  | "access_denied"
  | "invalid_redirect_uri"
  | "invalid_client_metadata";

/**
 * An OAuth protocol error: answered as `{ error, error_description }` (RFC 6749 §5.2), not the
 * API's envelope, because OAuth clients parse exactly that shape.
 */
export class OAuthError extends Error {
  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
    /** invalid_client is 401 (RFC 6749 §5.2); everything else 400. */
    readonly status = error === "invalid_client" ? 401 : 400,
  ) {
    super(description);
    this.name = "OAuthError";
  }
}

export const isOAuthError = (value: unknown): value is OAuthError => value instanceof OAuthError;
