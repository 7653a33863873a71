import { seal } from "@/lib/credentials/sealed";
import { getDb } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { log } from "@/lib/log";

/** What an OAuth storage connection keeps sealed: the tokens, never shown. */
export interface OAuthSecrets {
  accessToken: string;
  refreshToken: string | null;
  /** Epoch ms when the access token stops working; null when the provider gave no lifetime. */
  expiresAt: number | null;
}

/** The provider's token endpoint and the operator's app registered there. */
export interface OAuthApp {
  /** Shown in messages: "Google Drive", "Dropbox". */
  label: string;
  tokenUrl: string;
  /** Where a token is revoked when the connection is disconnected (RFC 7009-style for Google, an RPC for Dropbox). */
  revoke: { kind: "google"; url: string } | { kind: "dropbox"; url: string };
  clientId: string;
  clientSecret: string;
}

const CALL_TIMEOUT_MS = 30_000;
/** A disconnect waits at most this long for the provider to confirm the revocation. */
const REVOKE_TIMEOUT_MS = 10_000;
/** Refresh this long before the provider's expiry, so a call never starts with a token about to die. */
const EXPIRY_MARGIN_MS = 60_000;

/** Exchanges an authorization code (RFC 6749 section 4.1.3) at the provider's token endpoint. */
export async function exchangeCode(app: OAuthApp, code: string, redirectUri: string): Promise<OAuthSecrets & { raw: Record<string, unknown> }> {
  const body = await postToken(app, { grant_type: "authorization_code", code, redirect_uri: redirectUri });
  return { ...secretsFrom(body, null), raw: body };
}

/**
 * An OAuth connection's access token, refreshed when it expires or the provider answers 401. A
 * refresh the provider refuses (invalid_grant: the person revoked the app, or the token aged out)
 * marks the connection revoked, shown as such, and answers not_connected from then on.
 */
export class OAuthSession {
  constructor(
    private readonly connectionId: string,
    private secrets: OAuthSecrets,
    private readonly app: OAuthApp | null,
  ) {}

  /** A token good for at least a minute more (refreshed first if not), e.g. for the Google Picker in the browser. */
  async accessToken(): Promise<string> {
    if (this.secrets.expiresAt !== null && this.secrets.expiresAt - EXPIRY_MARGIN_MS < Date.now()) await this.refresh("the access token expired");
    return this.secrets.accessToken;
  }

  /** Calls `send` with a live token; on 401 refreshes once and calls again. */
  async call(send: (accessToken: string) => Promise<Response>): Promise<Response> {
    if (this.secrets.expiresAt !== null && this.secrets.expiresAt - EXPIRY_MARGIN_MS < Date.now()) await this.refresh("the access token expired");
    const first = await send(this.secrets.accessToken);
    if (first.status !== 401) return first;
    await first.body?.cancel();
    await this.refresh("the provider refused the access token (401)");
    const second = await send(this.secrets.accessToken);
    if (second.status !== 401) return second;
    await second.body?.cancel();
    return this.revoke(`${this.label()} refused the connection's access token (401)`);
  }

  /**
   * Tells the provider the app is done with this authorization, so the tokens stop working there
   * too (and the app leaves the account's list of connected apps). Google: POST the refresh token
   * (which revokes its access tokens with it) form-encoded as `token`; Dropbox: POST
   * /2/auth/token/revoke with the access token as bearer (it disables the refresh token with it).
   * Throws AppError when the provider did not confirm.
   */
  async revokeAtProvider(): Promise<void> {
    if (!this.app) throw new AppError("not_connected", "the provider's app is no longer configured on this server");
    const { revoke, label } = this.app;
    let res: Response;
    try {
      if (revoke.kind === "google") {
        res = await fetch(revoke.url, {
          method: "POST",
          headers: { "Content-Type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ token: this.secrets.refreshToken ?? this.secrets.accessToken }),
          signal: AbortSignal.timeout(REVOKE_TIMEOUT_MS),
        });
      } else {
        // The bearer token must be live: call() refreshes an expired one first.
        res = await this.call((token) =>
          fetch(revoke.url, { method: "POST", headers: { Authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(REVOKE_TIMEOUT_MS) }),
        );
      }
    } catch (err) {
      if (err instanceof AppError) throw err;
      throw new AppError("upstream_error", `${label}'s revoke endpoint could not be reached: ${(err as Error).message}`);
    }
    if (res.ok) return void (await res.body?.cancel());
    const body = await jsonOf(res);
    const detail = typeof body.error === "string" ? body.error : (body.error_summary ?? `HTTP ${res.status}`);
    throw new AppError("upstream_error", `${label}'s revoke endpoint answered ${res.status} (${detail})`);
  }

  private label(): string {
    return this.app?.label ?? "The provider";
  }

  private async refresh(why: string): Promise<void> {
    if (!this.secrets.refreshToken || !this.app) return this.revoke(`${this.label()} access ended (${why}) and there is no refresh token`);
    let body: Record<string, unknown>;
    try {
      body = await postToken(this.app, { grant_type: "refresh_token", refresh_token: this.secrets.refreshToken });
    } catch (err) {
      if (err instanceof AppError && err.code === "not_connected") return this.revoke(err.message);
      throw err;
    }
    this.secrets = secretsFrom(body, this.secrets.refreshToken);
    await getDb().storageConnection.updateMany({
      where: { id: this.connectionId, status: "active" },
      data: { credentialsCiphertext: seal(JSON.stringify(this.secrets), this.connectionId) },
    });
  }

  private async revoke(reason: string): Promise<never> {
    await getDb().storageConnection.updateMany({
      where: { id: this.connectionId, status: "active" },
      data: { status: "revoked", statusReason: reason.slice(0, 500), credentialsCiphertext: null, revokedAt: new Date() },
    });
    log.info("storage connection revoked by its provider", { component: "import", connectionId: this.connectionId, reason });
    throw new AppError("not_connected", `Storage connection ${this.connectionId} is no longer authorized: ${reason}. Connect it again from the Import page.`);
  }
}

/** POST to the token endpoint (form-encoded, client credentials in the body as both Google and Dropbox accept). */
async function postToken(app: OAuthApp, params: Record<string, string>): Promise<Record<string, unknown>> {
  let res: Response;
  try {
    res = await fetch(app.tokenUrl, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" },
      body: new URLSearchParams({ ...params, client_id: app.clientId, client_secret: app.clientSecret }),
      signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
    });
  } catch (err) {
    throw new AppError("upstream_error", `${app.label}'s token endpoint could not be reached: ${(err as Error).message}`);
  }
  const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  if (res.ok && typeof body.access_token === "string") return body;
  const code = typeof body.error === "string" ? body.error : `HTTP ${res.status}`;
  const detail = typeof body.error_description === "string" ? `: ${body.error_description}` : "";
  // invalid_grant: the code or refresh token is expired, used or revoked (RFC 6749 section 5.2).
  if (res.status === 400 || res.status === 401) throw new AppError("not_connected", `${app.label} refused the authorization (${code}${detail})`);
  throw new AppError("upstream_error", `${app.label}'s token endpoint answered ${code}${detail}`);
}

function secretsFrom(body: Record<string, unknown>, previousRefresh: string | null): OAuthSecrets {
  const expiresIn = Number(body.expires_in);
  return {
    accessToken: body.access_token as string,
    // Google and Dropbox send no new refresh token on a refresh: the old one stays good.
    refreshToken: typeof body.refresh_token === "string" ? body.refresh_token : previousRefresh,
    expiresAt: Number.isFinite(expiresIn) && expiresIn > 0 ? Date.now() + expiresIn * 1000 : null,
  };
}

/** A JSON answer's body, or an empty object when it is not JSON. */
export async function jsonOf(res: Response): Promise<any> {
  return res.json().catch(() => ({}));
}
