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
      const req = http.request(url, { method: init.method ?? "GET", headers: init.headers, localAddress }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("error", reject);
        res.on("end", () => {
          const headers = new Headers();
          for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) headers.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
          resolve(new Response(Buffer.concat(chunks), { status: res.statusCode, headers }));
        });
      });
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
  const body = new FormData();
  for (const m of form.matchAll(/<input type="hidden" name="([^"]+)"(?: value="([^"]*)")?\/>/g)) body.set(decodeEntities(m[1]!), decodeEntities(m[2] ?? ""));
  for (const [k, v] of Object.entries(fields)) body.set(k, v);
  const res = await fetch(baseUrl + path, { method: "POST", redirect: "manual", headers: { Origin: baseUrl, ...options.headers }, body });
  return { status: res.status, html: await res.text() };
}
