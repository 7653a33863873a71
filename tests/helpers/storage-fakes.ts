import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * Local stand-ins for Google (Drive API v3, Google's OAuth 2.0 endpoints and its OpenID Connect provider: discovery,
 * ID tokens signed RS256, JWKS, userinfo) and Dropbox (API v2: the RPC host, the content host and /oauth2/token),
 * written from the providers' published references for the calls import and sign-in make. Each checks the request's
 * documented parameters (PKCE's code_verifier when the authorization request had a code_challenge) and its
 * Authorization header, and answers in the documented shapes and errors.
 * Tests point GOOGLE_OAUTH_TOKEN_URL / GOOGLE_OAUTH_REVOKE_URL / GOOGLE_DRIVE_API_URL, AUTH_GOOGLE_ISSUER and
 * DROPBOX_API_URL / DROPBOX_CONTENT_URL at them.
 */
export interface SeenRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: string;
}

interface Listener {
  url: string;
  close(): Promise<void>;
}

export async function listen(requests: SeenRequest[], handle: (req: SeenRequest, res: http.ServerResponse) => void): Promise<Listener> {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://fake");
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const seen = {
        method: req.method ?? "GET",
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      requests.push(seen);
      try {
        handle(seen, res);
      } catch (err) {
        res.writeHead(500, { "Content-Type": "text/plain" });
        res.end(String(err));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const json = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { "Content-Type": "application/json; charset=UTF-8", ...headers });
  res.end(JSON.stringify(body));
};

/** Whether a PKCE code_verifier answers the authorization request's S256 (or plain) code_challenge (RFC 7636 4.6). */
export function pkceVerifies(verifier: string, challenge: { value: string; method: string }): boolean {
  const derived = challenge.method === "S256" ? createHash("sha256").update(verifier).digest("base64url") : verifier;
  return /^[A-Za-z0-9\-._~]{43,128}$/.test(verifier) && derived === challenge.value;
}

/** What one authorization request asked for, kept with its code (and its tokens). */
export interface Grant {
  /** "" for a code a test issued without the consent page: any redirect_uri then. */
  redirectUri: string;
  scope: string;
  codeChallenge?: { value: string; method: string };
  nonce?: string;
  /** The Google account the person chose at consent (sign-in). */
  account?: GoogleAccount;
}

/** The OAuth 2.0 side both providers share (RFC 6749): codes, access and refresh tokens, revocation. */
class TokenBook {
  readonly codes = new Map<string, Grant>();
  readonly access = new Set<string>();
  readonly refresh = new Set<string>();
  /** access token -> the refresh token it was issued with (revoking one revokes the family). */
  private readonly familyOf = new Map<string, string>();
  /** access token -> the grant it was issued under. */
  readonly grantOf = new Map<string, Grant>();
  /** Set by a test: the revocation endpoint answers this status instead of revoking. */
  revokeFailure: number | null = null;

  constructor(
    readonly clientId: string,
    readonly clientSecret: string,
    readonly expiresIn: number,
  ) {}

  /**
   * The consent page, as if the person agreed at once (as `account`, for a sign-in): checks the app and the request,
   * then sends the browser back to redirect_uri with a code and the state if one was sent (RFC 6749 section 4.1.2;
   * `state` is recommended, not required).
   */
  authorize(req: SeenRequest, res: http.ServerResponse, account?: GoogleAccount): void {
    const q = req.query;
    if (q.get("client_id") !== this.clientId) return json(res, 400, { error: "invalid_client", error_description: "The OAuth client was not found." });
    const redirect = q.get("redirect_uri");
    if (q.get("response_type") !== "code" || !redirect || !q.get("scope"))
      return json(res, 400, { error: "invalid_request", error_description: "response_type=code, redirect_uri and scope are required" });
    const challenge = q.get("code_challenge");
    const method = q.get("code_challenge_method") ?? "plain";
    if (challenge && !["S256", "plain"].includes(method))
      return json(res, 400, { error: "invalid_request", error_description: "Invalid code_challenge_method" });
    const code = randomBytes(12).toString("base64url");
    this.codes.set(code, {
      redirectUri: redirect,
      scope: q.get("scope")!,
      ...(challenge ? { codeChallenge: { value: challenge, method } } : {}),
      ...(q.get("nonce") ? { nonce: q.get("nonce")! } : {}),
      ...(account ? { account } : {}),
    });
    const back = new URL(redirect);
    back.searchParams.set("code", code);
    if (q.get("state")) back.searchParams.set("state", q.get("state")!);
    res.writeHead(302, { Location: back.toString() });
    res.end();
  }

  /**
   * The token endpoint: form-encoded grant_type=authorization_code or refresh_token. `extra`: the provider's own fields
   * of the answer for the grant (its scope, an ID token).
   */
  handle(req: SeenRequest, res: http.ServerResponse, extra: (grant: Grant) => Record<string, unknown>): void {
    if (req.method !== "POST") return json(res, 405, { error: "invalid_request", error_description: "POST only" });
    if (!String(req.headers["content-type"] ?? "").startsWith("application/x-www-form-urlencoded"))
      return json(res, 400, { error: "invalid_request", error_description: "Content-Type must be application/x-www-form-urlencoded" });
    const form = new URLSearchParams(req.body);
    let [clientId, clientSecret] = [form.get("client_id"), form.get("client_secret")];
    const basic = /^Basic (.+)$/.exec(String(req.headers.authorization ?? ""));
    // client_secret_basic: each part form-urlencoded before base64 (RFC 6749 section 2.3.1).
    const formDecode = (part: string) => decodeURIComponent(part.replace(/\+/g, " "));
    if (basic) [clientId, clientSecret] = Buffer.from(basic[1]!, "base64").toString("utf8").split(":").map(formDecode) as [string, string];
    if (clientId !== this.clientId || clientSecret !== this.clientSecret) return json(res, 401, { error: "invalid_client", error_description: "Unauthorized" });
    const grant = form.get("grant_type");
    if (grant === "authorization_code") {
      const code = form.get("code") ?? "";
      const redirect = form.get("redirect_uri");
      if (!redirect) return json(res, 400, { error: "invalid_request", error_description: "Missing parameter: redirect_uri" });
      const issued = this.codes.get(code);
      if (!issued) return json(res, 400, { error: "invalid_grant", error_description: "Malformed auth code." });
      if (issued.redirectUri && issued.redirectUri !== redirect) return json(res, 400, { error: "redirect_uri_mismatch", error_description: "Bad Request" });
      if (issued.codeChallenge) {
        const verifier = form.get("code_verifier");
        if (!verifier) return json(res, 400, { error: "invalid_grant", error_description: "Missing code verifier." });
        if (!pkceVerifies(verifier, issued.codeChallenge)) return json(res, 400, { error: "invalid_grant", error_description: "Invalid code verifier." });
      }
      this.codes.delete(code);
      const refresh = `rt-${randomBytes(8).toString("hex")}`;
      this.refresh.add(refresh);
      this.grantOfRefresh.set(refresh, issued);
      return json(res, 200, {
        access_token: this.newAccess(refresh),
        expires_in: this.expiresIn,
        refresh_token: refresh,
        token_type: "Bearer",
        ...extra(issued),
      });
    }
    if (grant === "refresh_token") {
      const refresh = form.get("refresh_token") ?? "";
      if (!this.refresh.has(refresh)) return json(res, 400, { error: "invalid_grant", error_description: "Token has been expired or revoked." });
      // A refresh answers no new ID token's nonce: Google's refreshed ID token has none.
      const { nonce: _nonce, ...issued } = this.grantOfRefresh.get(refresh)!;
      return json(res, 200, { access_token: this.newAccess(refresh), expires_in: this.expiresIn, token_type: "Bearer", ...extra(issued) });
    }
    return json(res, 400, { error: "unsupported_grant_type", error_description: `Invalid grant_type: ${grant}` });
  }

  private readonly grantOfRefresh = new Map<string, Grant>();

  private newAccess(refresh: string): string {
    const token = `at-${randomBytes(8).toString("hex")}`;
    this.access.add(token);
    this.familyOf.set(token, refresh);
    this.grantOf.set(token, this.grantOfRefresh.get(refresh)!);
    return token;
  }

  /**
   * Revokes an access or refresh token with everything issued under the same grant (Google: an
   * access token's refresh token goes too; Dropbox: the refresh token and its other access tokens).
   * False when the token is unknown or already revoked.
   */
  revokeToken(token: string): boolean {
    const refresh = this.refresh.has(token) ? token : this.access.has(token) ? this.familyOf.get(token) : undefined;
    if (refresh === undefined) return false;
    this.refresh.delete(refresh);
    for (const [access, family] of this.familyOf) if (family === refresh) this.access.delete(access);
    this.access.delete(token);
    return true;
  }

  bearer(req: SeenRequest): string | null {
    const m = /^Bearer (\S+)$/.exec(String(req.headers.authorization ?? ""));
    return m && this.access.has(m[1]!) ? m[1]! : null;
  }

  /** The person removed the app: every token stops working, refresh included. */
  revokeAll(): void {
    this.access.clear();
    this.refresh.clear();
  }

  /** Access tokens age out; refresh tokens stay good. */
  expireAccess(): void {
    this.access.clear();
  }
}

// ---------------------------------------------------------------- Google (OpenID Connect sign-in and Drive)

/** A Google account, as its ID token's claims describe it. */
export interface GoogleAccount {
  sub: string;
  email: string;
  email_verified: boolean;
  name: string;
}

/** Google's ID token signing key (generated once per process: RSA key generation is not free) and its JWK. */
let signingKey: { privateKey: KeyObject; jwk: Record<string, unknown> } | undefined;
function googleSigningKey() {
  if (!signingKey) {
    const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const kid = randomBytes(20).toString("hex");
    signingKey = { privateKey, jwk: { ...publicKey.export({ format: "jwk" }), kid, alg: "RS256", use: "sig" } };
  }
  return signingKey;
}

/** A JWT signed RS256 with the fake's key (Google's ID tokens: JWS compact serialization, `kid` of its JWKS). */
function signIdToken(claims: Record<string, unknown>): string {
  const { privateKey, jwk } = googleSigningKey();
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const input = `${part({ alg: "RS256", kid: jwk.kid, typ: "JWT" })}.${part(claims)}`;
  return `${input}.${sign("sha256", Buffer.from(input), privateKey).toString("base64url")}`;
}

/**
 * The claims Google's ID token and userinfo carry for the scopes granted: `sub` always; `email`, `email_verified` with
 * `email`; `name`, `given_name`, `picture` with `profile`.
 */
function googleClaims(account: GoogleAccount, scope: string): Record<string, unknown> {
  const scopes = scope.split(" ");
  return {
    sub: account.sub,
    ...(scopes.includes("email") ? { email: account.email, email_verified: account.email_verified } : {}),
    ...(scopes.includes("profile")
      ? { name: account.name, given_name: account.name.split(" ")[0], picture: `https://lh3.googleusercontent.com/a/${account.sub}` }
      : {}),
  };
}

interface DriveFile {
  id: string;
  name: string;
  mimeType: string;
  parents: string[];
  bytes?: Buffer;
  modifiedTime: string;
  trashed: boolean;
}

export interface DriveFake {
  /** Google's OpenID Connect issuer (AUTH_GOOGLE_ISSUER): its discovery document names the endpoints below. */
  issuer: string;
  /** The account the person picks at Google's consent page from now on (sign-in: the ID token's subject). */
  chooseAccount(account: GoogleAccount): void;
  authorizeUrl: string;
  tokenUrl: string;
  /** Google's token revocation endpoint (GOOGLE_OAUTH_REVOKE_URL). */
  revokeUrl: string;
  apiUrl: string;
  requests: SeenRequest[];
  /** Makes the revocation endpoint answer this status (null: work again). */
  failRevocations(status: number | null): void;
  /** My Drive's root folder id (what the alias "root" names). */
  rootId: string;
  /** Issues an authorization code, as Google's consent page would after the person agreed. */
  issueCode(): string;
  addFolder(name: string, parentId?: string): string;
  addFile(name: string, bytes: Buffer, parentId: string, mimeType?: string): string;
  /** Makes a copy with another name (files.copy): a new id, the same bytes and md5Checksum. */
  copy(id: string, name: string, parentId?: string): string;
  revokeAll(): void;
  expireAccessTokens(): void;
  close(): Promise<void>;
}

const FOLDER = "application/vnd.google-apps.folder";

export async function startDriveFake(options: { clientId: string; clientSecret: string }): Promise<DriveFake> {
  const tokens = new TokenBook(options.clientId, options.clientSecret, 3599);
  const requests: SeenRequest[] = [];
  const rootId = `0A${randomBytes(6).toString("hex")}`;
  const files = new Map<string, DriveFile>([
    [rootId, { id: rootId, name: "My Drive", mimeType: FOLDER, parents: [], modifiedTime: new Date().toISOString(), trashed: false }],
  ]);
  const changes: string[] = []; // file ids, in order; the page token is the 1-based position
  let seq = 0;
  const newId = () => `1${randomBytes(12).toString("base64url")}${++seq}`;
  const touch = (id: string) => changes.push(id);

  const resource = (f: DriveFile) => ({
    kind: "drive#file",
    id: f.id,
    name: f.name,
    mimeType: f.mimeType,
    parents: f.parents,
    trashed: f.trashed,
    modifiedTime: f.modifiedTime,
    ...(f.bytes ? { size: String(f.bytes.length), md5Checksum: createHash("md5").update(f.bytes).digest("hex") } : {}),
  });
  const error = (res: http.ServerResponse, code: number, message: string, reason: string, location?: string) =>
    json(res, code, {
      error: {
        code,
        message,
        errors: [{ message, domain: "global", reason, ...(location ? { location, locationType: location === "Authorization" ? "header" : "parameter" } : {}) }],
        ...(code === 401 ? { status: "UNAUTHENTICATED" } : {}),
      },
    });
  const resolve = (id: string) => (id === "root" ? rootId : id);

  let chosen: GoogleAccount = { sub: "110169484474386276334", email: "dana@example.com", email_verified: true, name: "Dana Drive" };
  /** The token endpoint's own fields: the scopes granted and, for `openid`, the ID token (OpenID Connect Core 3.1.3.3). */
  const tokenFields = (grant: Grant) => {
    const scopes = grant.scope.split(" ");
    if (!scopes.includes("openid") || !grant.account) return { scope: "https://www.googleapis.com/auth/drive.file" };
    const now = Math.floor(Date.now() / 1000);
    return {
      // Google names the email and profile scopes by their full URLs in the answer.
      scope: scopes.map((s) => (s === "email" || s === "profile" ? `https://www.googleapis.com/auth/userinfo.${s}` : s)).join(" "),
      id_token: signIdToken({
        iss: api.url,
        azp: options.clientId,
        aud: options.clientId,
        ...googleClaims(grant.account, grant.scope),
        iat: now,
        exp: now + 3600,
        ...(grant.nonce ? { nonce: grant.nonce } : {}),
      }),
    };
  };

  const api = await listen(requests, (req, res) => {
    if (req.path === "/.well-known/openid-configuration") {
      // Google's discovery document (OpenID Connect Discovery 1.0), its endpoints on this fake.
      return json(res, 200, {
        issuer: api.url,
        authorization_endpoint: `${api.url}/o/oauth2/v2/auth`,
        token_endpoint: `${api.url}/token`,
        userinfo_endpoint: `${api.url}/v1/userinfo`,
        revocation_endpoint: `${api.url}/revoke`,
        jwks_uri: `${api.url}/oauth2/v3/certs`,
        response_types_supported: ["code", "token", "id_token", "code token", "code id_token", "token id_token", "code token id_token", "none"],
        subject_types_supported: ["public"],
        id_token_signing_alg_values_supported: ["RS256"],
        scopes_supported: ["openid", "email", "profile"],
        token_endpoint_auth_methods_supported: ["client_secret_post", "client_secret_basic"],
        claims_supported: ["aud", "email", "email_verified", "exp", "family_name", "given_name", "iat", "iss", "name", "picture", "sub"],
        code_challenge_methods_supported: ["plain", "S256"],
        grant_types_supported: [
          "authorization_code",
          "refresh_token",
          "urn:ietf:params:oauth:grant-type:device_code",
          "urn:ietf:params:oauth:grant-type:jwt-bearer",
        ],
      });
    }
    if (req.path === "/oauth2/v3/certs") return json(res, 200, { keys: [googleSigningKey().jwk] });
    if (req.path === "/token") return tokens.handle(req, res, tokenFields);
    if (req.path === "/revoke") {
      // Google's revocation endpoint: POST, the access or refresh token as `token` (form body or query); 200, or 400 invalid_token.
      if (req.method !== "POST") return json(res, 405, { error: "invalid_request", error_description: "POST only" });
      if (tokens.revokeFailure) return json(res, tokens.revokeFailure, { error: "backend_error", error_description: "Backend error" });
      const form = String(req.headers["content-type"] ?? "").startsWith("application/x-www-form-urlencoded") ? new URLSearchParams(req.body) : null;
      const token = form?.get("token") ?? req.query.get("token");
      if (!token) return json(res, 400, { error: "invalid_request", error_description: "Missing required parameter: token" });
      if (!tokens.revokeToken(token)) return json(res, 400, { error: "invalid_token", error_description: "Token expired or revoked" });
      return json(res, 200, {});
    }
    if (req.path === "/o/oauth2/v2/auth") return tokens.authorize(req, res, chosen);
    if (req.path === "/v1/userinfo") {
      const token = tokens.bearer(req);
      const grant = token ? tokens.grantOf.get(token) : undefined;
      if (!grant?.account || !grant.scope.split(" ").includes("openid"))
        return json(res, 401, { error: "invalid_request", error_description: "Invalid Credentials" });
      return json(res, 200, googleClaims(grant.account, grant.scope));
    }
    if (!tokens.bearer(req))
      return error(res, 401, "Request had invalid authentication credentials. Expected OAuth 2 access token.", "authError", "Authorization");
    if (req.method !== "GET") return error(res, 405, "Method not allowed", "methodNotAllowed");
    const q = req.query;
    if (req.path === "/drive/v3/about") {
      if (!q.get("fields")) return error(res, 400, "The 'fields' parameter is required for this method.", "required", "fields");
      return json(res, 200, { user: { kind: "drive#user", displayName: "Dana Drive", emailAddress: "dana@example.com" } });
    }
    if (req.path === "/drive/v3/changes/startPageToken") return json(res, 200, { kind: "drive#startPageToken", startPageToken: String(changes.length + 1) });
    if (req.path === "/drive/v3/changes") {
      const token = Number(q.get("pageToken"));
      if (!q.get("pageToken")) return error(res, 400, "Required parameter: pageToken", "required", "pageToken");
      if (!Number.isInteger(token) || token < 1 || token > changes.length + 1) return error(res, 400, `Invalid Value`, "invalid", "pageToken");
      const size = Math.min(Number(q.get("pageSize") ?? 100), 1000);
      const slice = changes.slice(token - 1, token - 1 + size);
      const end = token - 1 + slice.length >= changes.length;
      return json(res, 200, {
        kind: "drive#changeList",
        changes: slice.map((id) => {
          const f = files.get(id)!;
          return { kind: "drive#change", changeType: "file", fileId: id, removed: false, time: f.modifiedTime, file: resource(f) };
        }),
        ...(end ? { newStartPageToken: String(changes.length + 1) } : { nextPageToken: String(token + slice.length) }),
      });
    }
    if (req.path === "/drive/v3/files") {
      // The one query shape import sends: "'<folder>' in parents and trashed = false".
      const m = /^'((?:[^'\\]|\\.)+)' in parents and trashed = false$/.exec(q.get("q") ?? "");
      if (!m) return error(res, 400, "Invalid Value", "invalid", "q");
      const parent = resolve(m[1]!.replace(/\\(.)/g, "$1"));
      const children = [...files.values()]
        .filter((f) => f.parents.includes(parent) && !f.trashed)
        .sort((a, b) => Number(b.mimeType === FOLDER) - Number(a.mimeType === FOLDER) || a.name.localeCompare(b.name));
      const offset = Number(q.get("pageToken") ?? 0);
      const size = Math.min(Number(q.get("pageSize") ?? 100), 1000);
      const page = children.slice(offset, offset + size);
      return json(res, 200, {
        kind: "drive#fileList",
        incompleteSearch: false,
        files: page.map(resource),
        ...(offset + size < children.length ? { nextPageToken: String(offset + size) } : {}),
      });
    }
    const single = /^\/drive\/v3\/files\/([^/]+)$/.exec(req.path);
    if (single) {
      const f = files.get(resolve(decodeURIComponent(single[1]!)));
      if (!f) return error(res, 404, `File not found: ${single[1]}.`, "notFound", "fileId");
      if (q.get("alt") === "media") {
        if (!f.bytes)
          return error(res, 403, "Only files with binary content can be downloaded. Use Export with Docs Editors files.", "fileNotDownloadable", "alt");
        res.writeHead(200, { "Content-Type": f.mimeType, "Content-Length": String(f.bytes.length) });
        return res.end(f.bytes);
      }
      return json(res, 200, resource(f));
    }
    return error(res, 404, "Not Found", "notFound");
  });

  const fake: DriveFake = {
    issuer: api.url,
    chooseAccount: (account) => void (chosen = account),
    authorizeUrl: `${api.url}/o/oauth2/v2/auth`,
    tokenUrl: `${api.url}/token`,
    revokeUrl: `${api.url}/revoke`,
    apiUrl: api.url,
    requests,
    failRevocations: (status) => void (tokens.revokeFailure = status),
    rootId,
    issueCode() {
      const code = `4/${randomBytes(10).toString("base64url")}`;
      tokens.codes.set(code, { redirectUri: "", scope: "" });
      return code;
    },
    addFolder(name, parentId = rootId) {
      const id = newId();
      files.set(id, { id, name, mimeType: FOLDER, parents: [parentId], modifiedTime: new Date().toISOString(), trashed: false });
      touch(id);
      return id;
    },
    addFile(name, bytes, parentId, mimeType = "application/octet-stream") {
      const id = newId();
      files.set(id, { id, name, mimeType, parents: [parentId], bytes, modifiedTime: new Date().toISOString(), trashed: false });
      touch(id);
      return id;
    },
    copy(id, name, parentId) {
      const f = files.get(id)!;
      return fake.addFile(name, f.bytes!, parentId ?? f.parents[0]!, f.mimeType);
    },
    revokeAll: () => tokens.revokeAll(),
    expireAccessTokens: () => tokens.expireAccess(),
    close: () => api.close(),
  };
  return fake;
}

// ---------------------------------------------------------------- Dropbox

interface DropboxNode {
  id: string;
  path: string; // display path, "/A/b.png"
  folder: boolean;
  bytes?: Buffer;
  rev: string;
  modified: string;
  seq: number;
  deleted: boolean;
}

export interface DropboxFake {
  authorizeUrl: string;
  apiUrl: string;
  contentUrl: string;
  requests: SeenRequest[];
  /** Makes /2/auth/token/revoke answer this status (null: work again). */
  failRevocations(status: number | null): void;
  issueCode(): string;
  addFolder(path: string): void;
  addFile(path: string, bytes: Buffer): string;
  /** files/copy_v2: another path and id, the same bytes (and content_hash). */
  copy(from: string, to: string): string;
  revokeAll(): void;
  expireAccessTokens(): void;
  close(): Promise<void>;
}

/** Dropbox's content hash: SHA-256 of the concatenated SHA-256 digests of each 4 MiB block. */
export function dropboxContentHash(bytes: Buffer): string {
  const blocks: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += 4 * 1024 * 1024)
    blocks.push(
      createHash("sha256")
        .update(bytes.subarray(i, i + 4 * 1024 * 1024))
        .digest(),
    );
  return createHash("sha256").update(Buffer.concat(blocks)).digest("hex");
}

export async function startDropboxFake(options: { appKey: string; appSecret: string }): Promise<DropboxFake> {
  const tokens = new TokenBook(options.appKey, options.appSecret, 14400);
  const requests: SeenRequest[] = [];
  const nodes = new Map<string, DropboxNode>(); // by lowercased path
  let seq = 0;
  const lower = (p: string) => p.toLowerCase();
  const parentOf = (p: string) => p.slice(0, p.lastIndexOf("/"));

  const metadata = (n: DropboxNode) => {
    const name = n.path.slice(n.path.lastIndexOf("/") + 1);
    if (n.deleted) return { ".tag": "deleted", name, path_lower: lower(n.path), path_display: n.path };
    if (n.folder) return { ".tag": "folder", name, id: n.id, path_lower: lower(n.path), path_display: n.path };
    return {
      ".tag": "file",
      name,
      id: n.id,
      client_modified: n.modified,
      server_modified: n.modified,
      rev: n.rev,
      size: n.bytes!.length,
      path_lower: lower(n.path),
      path_display: n.path,
      is_downloadable: true,
      content_hash: dropboxContentHash(n.bytes!),
    };
  };
  const endpointError = (res: http.ServerResponse, summary: string, error: unknown) => json(res, 409, { error_summary: summary, error });
  const badInput = (res: http.ServerResponse, route: string, message: string) => {
    res.writeHead(400, { "Content-Type": "text/plain; charset=utf-8" });
    res.end(`Error in call to API function "${route}": ${message}`);
  };
  const authorized = (req: SeenRequest, res: http.ServerResponse): boolean => {
    if (tokens.bearer(req)) return true;
    const tag = String(req.headers.authorization ?? "").startsWith("Bearer ") ? "invalid_access_token" : "missing_auth";
    json(res, 401, { error_summary: `${tag}/...`, error: { ".tag": tag } });
    return false;
  };
  const find = (path: string): DropboxNode | undefined => {
    if (path.startsWith("id:")) return [...nodes.values()].find((n) => n.id === path && !n.deleted);
    const n = nodes.get(lower(path));
    return n && !n.deleted ? n : undefined;
  };
  const pathError = (res: http.ServerResponse) => endpointError(res, "path/not_found/", { ".tag": "path", path: { ".tag": "not_found" } });
  const validPath = (p: unknown) => typeof p === "string" && (p === "" || /^(\/(.|[\r\n])*|id:.*|rev:[0-9a-f]{9,}(\/(.|[\r\n])*)?|ns:[0-9]+(\/.*)?)$/.test(p));

  type Cursor = { path: string; recursive: boolean; seq: number; offset: number };
  const encode = (c: Cursor) => Buffer.from(JSON.stringify(c)).toString("base64url");
  const decode = (s: unknown): Cursor | null => {
    try {
      return JSON.parse(Buffer.from(String(s), "base64url").toString("utf8")) as Cursor;
    } catch {
      return null;
    }
  };
  const within = (n: DropboxNode, path: string, recursive: boolean) =>
    recursive ? path === "" || lower(n.path).startsWith(`${lower(path)}/`) : lower(parentOf(n.path)) === lower(path);
  const LIMIT = 2000;
  const listPage = (c: Cursor, sinceSeq: number | null) => {
    const all = [...nodes.values()]
      .filter((n) => within(n, c.path, c.recursive) && (sinceSeq === null ? !n.deleted : n.seq > sinceSeq))
      .sort((a, b) => a.seq - b.seq);
    const page = all.slice(c.offset, c.offset + LIMIT);
    const more = c.offset + LIMIT < all.length;
    const next: Cursor = more ? { ...c, offset: c.offset + LIMIT } : { path: c.path, recursive: c.recursive, seq, offset: 0 };
    return { entries: page.map(metadata), cursor: encode(next), has_more: more };
  };

  const rpc = await listen(requests, (req, res) => {
    if (req.path === "/oauth2/authorize") return tokens.authorize(req, res);
    if (req.path === "/oauth2/token")
      return tokens.handle(req, res, () => ({
        scope: "account_info.read files.content.read files.metadata.read",
        uid: "12345",
        account_id: "dbid:AAH4f99T0taONIb-OurWxbNQ6ywGRopQngc",
      }));
    if (req.method !== "POST") return badInput(res, req.path.slice(3), "Expected POST");
    if (!authorized(req, res)) return;
    const route = req.path.replace(/^\/2\//, "");
    if (route === "auth/token/revoke") {
      // No arguments; disables the bearer token, its refresh token and the refresh token's other access tokens.
      if (req.body && req.body !== "null")
        return badInput(res, route, "This function requires its argument in the HTTP request body, but it must be null or absent.");
      if (tokens.revokeFailure) return json(res, tokens.revokeFailure, { error_summary: "internal_error/...", error: { ".tag": "internal_error" } });
      tokens.revokeToken(tokens.bearer(req)!);
      return json(res, 200, null);
    }
    if (route === "users/get_current_account") {
      // No arguments: no body (or the JSON null).
      if (req.body && req.body !== "null")
        return badInput(res, route, "This function requires its argument in the HTTP request body, but it must be null or absent.");
      return json(res, 200, {
        account_id: "dbid:AAH4f99T0taONIb-OurWxbNQ6ywGRopQngc",
        name: { given_name: "Dee", surname: "Box", display_name: "Dee Box" },
        email: "dee@example.com",
      });
    }
    if (!String(req.headers["content-type"] ?? "").startsWith("application/json"))
      return badInput(res, route, `Bad HTTP "Content-Type" header: "${req.headers["content-type"] ?? ""}". Expecting one of "application/json".`);
    let args: any;
    try {
      args = JSON.parse(req.body);
    } catch {
      return badInput(res, route, "could not decode input as JSON");
    }
    if (route === "files/list_folder") {
      if (!validPath(args.path)) return badInput(res, route, `request body: path: '${args.path}' did not match pattern`);
      if (args.path !== "" && !(find(args.path)?.folder ?? false)) return pathError(res);
      const path = args.path === "" ? "" : find(args.path)!.path;
      return json(res, 200, listPage({ path, recursive: Boolean(args.recursive), seq, offset: 0 }, null));
    }
    if (route === "files/list_folder/continue") {
      const c = decode(args.cursor);
      if (!c || typeof c.seq !== "number") return badInput(res, route, "request body: cursor: invalid cursor");
      if (c.offset > 0) return json(res, 200, listPage(c, null));
      return json(res, 200, listPage({ ...c, offset: 0 }, c.seq));
    }
    if (route === "files/get_metadata") {
      if (!validPath(args.path) || args.path === "") return badInput(res, route, `request body: path: '${args.path}' did not match pattern`);
      const n = find(args.path);
      return n ? json(res, 200, metadata(n)) : pathError(res);
    }
    return badInput(res, route, "Unknown API function");
  });

  const content = await listen(requests, (req, res) => {
    if (req.method !== "POST") return badInput(res, "files/download", "Expected POST");
    if (!authorized(req, res)) return;
    if (req.path !== "/2/files/download") return badInput(res, req.path, "Unknown API function");
    if (req.body) return badInput(res, "files/download", "This function takes no request body: its arguments go in the Dropbox-API-Arg header.");
    let args: any;
    try {
      args = JSON.parse(String(req.headers["dropbox-api-arg"] ?? ""));
    } catch {
      return badInput(res, "files/download", 'Missing or invalid "Dropbox-API-Arg" header');
    }
    const n = find(args.path);
    if (!n || n.folder) return endpointError(res, "path/not_found/", { ".tag": "path", path: { ".tag": "not_found" } });
    res.writeHead(200, {
      "Content-Type": "application/octet-stream",
      "Content-Length": String(n.bytes!.length),
      "Dropbox-API-Result": JSON.stringify(metadata(n)),
    });
    res.end(n.bytes);
  });

  const put = (path: string, bytes?: Buffer): DropboxNode => {
    const node: DropboxNode = {
      id: `id:${randomBytes(9).toString("base64url")}`,
      path,
      folder: !bytes,
      bytes,
      rev: randomBytes(7).toString("hex").slice(0, 13),
      modified: new Date().toISOString().replace(/\.\d+Z$/, "Z"),
      seq: ++seq,
      deleted: false,
    };
    nodes.set(lower(path), node);
    return node;
  };

  return {
    authorizeUrl: `${rpc.url}/oauth2/authorize`,
    apiUrl: rpc.url,
    contentUrl: content.url,
    requests,
    failRevocations: (status) => void (tokens.revokeFailure = status),
    issueCode() {
      const code = randomBytes(16).toString("base64url");
      tokens.codes.set(code, { redirectUri: "", scope: "" });
      return code;
    },
    addFolder: (path) => void put(path),
    addFile: (path, bytes) => put(path, bytes).id,
    copy(from, to) {
      return put(to, find(from)!.bytes!).id;
    },
    revokeAll: () => tokens.revokeAll(),
    expireAccessTokens: () => tokens.expireAccess(),
    close: async () => {
      await rpc.close();
      await content.close();
    },
  };
}
