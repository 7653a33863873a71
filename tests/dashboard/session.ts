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

/**
 * Signs in through Auth.js's own credentials endpoint (CSRF token, then the callback), as a
 * browser form would. Returns the cookie jar and where Auth.js redirected.
 */
export async function signIn(
  email: string,
  password: string,
  code = "",
  baseUrl = inject("baseUrl"),
): Promise<{ jar: Map<string, string>; location: string; signedIn: boolean }> {
  const jar = new Map<string, string>();
  const csrf = await fetch(`${baseUrl}/api/auth/csrf`);
  mergeCookies(jar, csrf);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const res = await fetch(`${baseUrl}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookieHeader(jar) },
    body: new URLSearchParams({ email, password, code, csrfToken, callbackUrl: "/dashboard" }),
  });
  mergeCookies(jar, res);
  return { jar, location: res.headers.get("location") ?? "", signedIn: [...jar.keys()].some((k) => k.includes("authjs.session-token")) };
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
): Promise<{ status: number; location: string | null }> {
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
  await res.arrayBuffer();
  return { status: res.status, location: res.headers.get("x-action-redirect") ?? res.headers.get("location") };
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
