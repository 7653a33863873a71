import type { IncomingMessage } from "node:http";
import { inject } from "vitest";

/** Cookies a response set, as one Cookie header value (name=value; ...), merged over `jar`. */
function mergeCookies(jar: Map<string, string>, res: Response): void {
  for (const line of res.headers.getSetCookie()) {
    const [pair] = line.split(";");
    const i = pair!.indexOf("=");
    jar.set(pair!.slice(0, i).trim(), pair!.slice(i + 1));
  }
}

export const cookieHeader = (jar: Map<string, string>) => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");

/** A node:http response read whole, as fetch would answer it (every header kept, no body for 204 and 304). */
function asFetchResponse(res: IncomingMessage): Promise<Response> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on("data", (c: Buffer) => chunks.push(c));
    res.on("error", reject);
    res.on("end", () => {
      const headers = new Headers();
      for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) headers.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
      resolve(new Response([204, 304].includes(res.statusCode!) ? null : Buffer.concat(chunks), { status: res.statusCode, headers }));
    });
  });
}

type Send = (url: string, init?: { method?: string; headers?: Record<string, string>; body?: string }) => Promise<Response>;

/**
 * fetch, or (with `localAddress`, one of the loopback addresses 127.x.y.z) a request sent from that address, so the
 * server sees another client address without trusting any header.
 */
function sender(localAddress?: string): Send {
  if (!localAddress) return (url, init) => fetch(url, { ...init, redirect: "manual" });
  return async (url, init = {}) => {
    const http = await import("node:http");
    return new Promise<Response>((resolve, reject) => {
      const req = http.request(url, { method: init.method ?? "GET", headers: init.headers, localAddress }, (res) => asFetchResponse(res).then(resolve, reject));
      req.on("error", reject);
      req.end(init.body);
    });
  };
}

export interface SignInResult {
  jar: Map<string, string>;
  location: string;
  signedIn: boolean;
}

/**
 * A browser signing in through Auth.js's own credentials endpoint (CSRF token, then the callback), as its form
 * would: each call is one attempt (the CSRF token is fetched once). `from`: the loopback address it connects from.
 */
export function signInClient(
  options: { from?: string; baseUrl?: string } = {},
): (email: string, password: string, code?: string, headers?: Record<string, string>) => Promise<SignInResult> {
  const baseUrl = options.baseUrl ?? inject("baseUrl");
  const send = sender(options.from);
  let csrf: Promise<{ csrfToken: string; jar: Map<string, string> }> | undefined;
  return async (email, password, code = "", headers = {}) => {
    csrf ??= (async () => {
      const jar = new Map<string, string>();
      const res = await send(`${baseUrl}/api/auth/csrf`);
      mergeCookies(jar, res);
      return { csrfToken: ((await res.json()) as { csrfToken: string }).csrfToken, jar };
    })();
    const { csrfToken, jar: csrfJar } = await csrf;
    const jar = new Map(csrfJar);
    const res = await send(`${baseUrl}/api/auth/callback/credentials`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookieHeader(jar), ...headers },
      body: new URLSearchParams({ email, password, code, csrfToken, callbackUrl: "/dashboard" }).toString(),
    });
    await res.arrayBuffer();
    mergeCookies(jar, res);
    return { jar, location: res.headers.get("location") ?? "", signedIn: [...jar.keys()].some((k) => k.includes("authjs.session-token")) };
  };
}

/**
 * Signs in through Auth.js's own credentials endpoint (CSRF token, then the callback), as a
 * browser form would. Returns the cookie jar and where Auth.js redirected.
 */
export async function signIn(email: string, password: string, code = "", baseUrl = inject("baseUrl")): Promise<SignInResult> {
  return signInClient({ baseUrl })(email, password, code);
}

/** fetch with the session's cookies (and same-origin browser headers unless overridden). */
export function sessionFetch(jar: Map<string, string>, baseUrl = inject("baseUrl")) {
  return async (path: string, init: RequestInit & { json?: unknown } = {}) => {
    const headers = new Headers(init.headers);
    headers.set("Cookie", cookieHeader(jar));
    if (!headers.has("Sec-Fetch-Site")) headers.set("Sec-Fetch-Site", "same-origin");
    let body = init.body;
    if (init.json !== undefined) {
      headers.set("Content-Type", "application/json");
      body = JSON.stringify(init.json);
    }
    const res = await fetch(baseUrl + path, { ...init, headers, body, redirect: "manual" });
    const text = await res.text();
    let data: any;
    try {
      data = text ? JSON.parse(text) : undefined;
    } catch {
      data = text;
    }
    return { status: res.status, body: data, headers: res.headers };
  };
}

/**
 * Calls a dashboard server action over HTTP as the browser does (POST to its page with the
 * `Next-Action` header, the arguments as a JSON array), finding the action's id in the build's
 * server-reference manifest by file and export name.
 */
export async function callServerAction(
  jar: Map<string, string>,
  page: string,
  action: { file: string; name: string },
  args: unknown[] = [],
  baseUrl = inject("baseUrl"),
): Promise<{ status: number; location: string | null; body: string }> {
  const fs = await import("node:fs");
  const path = await import("node:path");
  const { distDir } = await import("../../scripts/build-if-stale.mjs");
  const manifest = JSON.parse(fs.readFileSync(path.join(distDir(), "server/server-reference-manifest.json"), "utf8")) as {
    node: Record<string, { filename: string; exportedName: string }>;
  };
  const id = Object.entries(manifest.node).find(([, v]) => v.filename === action.file && v.exportedName === action.name)?.[0];
  if (!id) throw new Error(`No server action ${action.name} in ${action.file}`);
  const res = await fetch(baseUrl + page, {
    method: "POST",
    redirect: "manual",
    headers: { "Next-Action": id, "Content-Type": "text/plain;charset=UTF-8", Accept: "text/x-component", Origin: baseUrl, Cookie: cookieHeader(jar) },
    body: JSON.stringify(args),
  });
  mergeCookies(jar, res);
  // The action's answer, in the RSC payload: its return value is a line of JSON (`1:{"ok":false,...}`).
  const body = await res.text();
  return { status: res.status, location: res.headers.get("x-action-redirect") ?? res.headers.get("location"), body };
}

const decodeEntities = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

/**
 * Submits a page's server-action form as a browser without JavaScript does: a multipart post to the page with the
 * form's hidden action fields (from the page's HTML) and `fields`. `html`: a page fetched earlier (its form as it was
 * then), else `path` is fetched now. `headers` override the browser's (Origin: this server).
 */
export async function submitPageForm(
  path: string,
  fields: Record<string, string>,
  options: { html?: string; headers?: Record<string, string> } = {},
  baseUrl = inject("baseUrl"),
): Promise<{ status: number; html: string }> {
  const html = options.html ?? (await (await fetch(baseUrl + path)).text());
  const form = /<form[^>]*>([\s\S]*?)<\/form>/.exec(html)?.[1];
  if (!form) throw new Error(`No form on ${path}`);
  const body = hiddenFields(form);
  for (const [k, v] of Object.entries(fields)) body.set(k, v);
  const res = await fetch(baseUrl + path, { method: "POST", redirect: "manual", headers: { Origin: baseUrl, ...options.headers }, body });
  return { status: res.status, html: await res.text() };
}

/** A form's hidden fields (a server action's id and bound values among them), as the browser would post them. */
function hiddenFields(form: string): FormData {
  const body = new FormData();
  for (const m of form.matchAll(/<input type="hidden" name="([^"]+)"(?: value="([^"]*)")?\/>/g)) body.set(decodeEntities(m[1]!), decodeEntities(m[2] ?? ""));
  return body;
}

export interface ProviderSignInResult {
  /** This server's cookies at the end (an Auth.js cookie it deleted is gone). */
  jar: Map<string, string>;
  /** Every URL the browser was sent to, in order: the provider's pages, the callback, where it landed. */
  visited: URL[];
  /** The page it landed on and its status. */
  landed: URL;
  status: number;
  html: string;
  signedIn: boolean;
}

/**
 * A request as a browser sends it to `url`, whose host name resolves to `address` (a hosts-file entry): the Host
 * header keeps the name, as behind a reverse proxy serving the service under its public name.
 */
async function sendResolved(url: URL, address: string, init: { method?: string; headers?: Record<string, string>; body?: FormData }): Promise<Response> {
  const http = await import("node:http");
  let body: Buffer | undefined;
  const headers: Record<string, string> = { ...init.headers };
  if (init.body) {
    const encoded = new Response(init.body);
    headers["Content-Type"] = encoded.headers.get("content-type")!;
    body = Buffer.from(await encoded.arrayBuffer());
  }
  return new Promise<Response>((resolve, reject) => {
    const lookup = ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) =>
      options.all ? callback(null, [{ address, family: 4 }]) : callback(null, address, 4)) as never;
    const req = http.request(url, { method: init.method ?? "GET", headers, lookup }, (res) => asFetchResponse(res).then(resolve, reject));
    req.on("error", reject);
    req.end(body);
  });
}

/**
 * A browser without JavaScript choosing "Continue with Google/GitHub" on /sign-in at `publicUrl` (the service's
 * public name, which this browser resolves to `address`): the page's form for that provider (its server action),
 * then every redirect followed as a browser would, across the provider's pages (local fakes that agree at once) and
 * back, with the service's cookies kept and sent only to it.
 */
export async function signInWithProvider(provider: string, publicUrl: string, address = "127.0.0.1"): Promise<ProviderSignInResult> {
  const jar = new Map<string, string>();
  const origin = new URL(publicUrl).origin;
  const page = await sendResolved(new URL(`${origin}/sign-in`), address, {});
  mergeCookies(jar, page);
  const form = [...(await page.text()).matchAll(/<form[^>]*>([\s\S]*?)<\/form>/g)]
    .map((m) => m[1]!)
    .find((f) => f.includes(`name="provider" value="${provider}"`));
  if (!form) throw new Error(`/sign-in offers no ${provider} button`);
  let at = new URL(`${origin}/sign-in`);
  let res = await sendResolved(at, address, { method: "POST", headers: { Origin: origin, Cookie: cookieHeader(jar) }, body: hiddenFields(form) });
  mergeCookies(jar, res);
  const visited: URL[] = [];
  for (let hop = 0; res.status >= 300 && res.status < 400; hop++) {
    if (hop === 15) throw new Error(`Too many redirects: ${visited.join(" -> ")}`);
    await res.arrayBuffer();
    at = new URL(res.headers.get("location")!, at);
    visited.push(at);
    const ours = at.origin === origin;
    res = ours ? await sendResolved(at, address, { headers: { Cookie: cookieHeader(jar) } }) : await fetch(at, { redirect: "manual" });
    if (ours) mergeCookies(jar, res);
    for (const [k, v] of jar) if (!v) jar.delete(k);
  }
  return { jar, visited, landed: at, status: res.status, html: await res.text(), signedIn: [...jar.keys()].some((k) => k.includes("authjs.session-token")) };
}
