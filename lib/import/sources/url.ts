import http from "node:http";
import https from "node:https";
import type { Readable } from "node:stream";
import { getConfig } from "@/lib/services";
import { AppError } from "@/lib/errors";
import { pinnedLookup } from "@/lib/webhooks/http-post";
import { resolveDeliverableUrl, systemResolver, WebhookUrlError, type UrlPolicy } from "@/lib/webhooks/url-policy";
import type { SourceEntry, StorageSource } from "./types";

const MAX_REDIRECTS = 3;
const RESPONSE_TIMEOUT_MS = 15_000;

/** The webhook URL policy: public HTTPS only (loopback and private addresses with WEBHOOKS_ALLOW_PRIVATE_URLS=1). */
export function importUrlPolicy(): UrlPolicy {
  return { allowPrivate: getConfig().webhooks.allowPrivateUrls, resolver: systemResolver };
}

/**
 * Public HTTPS URLs: nothing to browse, each file is a URL. Every request (and every redirect)
 * goes to an address the webhook SSRF guard checked, pinned so DNS cannot change it afterwards.
 */
export class UrlSource implements StorageSource {
  async verify(): Promise<void> {}

  async browse(): Promise<never> {
    throw new AppError("invalid_input", "A URL connection has nothing to browse: pass the file URLs to import_files as paths");
  }

  async listFolder(): Promise<never> {
    throw new AppError("invalid_input", "A URL connection has no folders to watch");
  }

  async stat(id: string): Promise<SourceEntry> {
    const url = await checkUrl(id);
    return {
      id,
      path: id,
      name: fileNameOf(url),
      isFolder: false,
      sizeBytes: null,
      revision: null,
      modifiedAt: null,
    };
  }

  async open(id: string) {
    let current = id;
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      const res = await getPinned(current);
      const status = res.statusCode ?? 0;
      if (status >= 300 && status < 400 && res.headers.location) {
        res.resume();
        current = new URL(res.headers.location, current).toString();
        continue;
      }
      if (status !== 200) {
        res.resume();
        throw new AppError(status === 404 || status === 410 ? "not_found" : "upstream_error", `${id} answered HTTP ${status}`);
      }
      const length = Number(res.headers["content-length"]);
      return {
        stream: res as Readable,
        sizeBytes: Number.isFinite(length) ? length : null,
        revision: typeof res.headers.etag === "string" ? res.headers.etag : null,
        contentType: res.headers["content-type"]?.split(";")[0]?.trim() ?? null,
      };
    }
    throw new AppError("upstream_error", `${id} redirected more than ${MAX_REDIRECTS} times`);
  }
}

async function checkUrl(raw: string): Promise<URL> {
  try {
    return (await resolveDeliverableUrl(raw, importUrlPolicy())).url;
  } catch (err) {
    if (err instanceof WebhookUrlError) throw new AppError("invalid_input", `${raw}: ${err.message.replace("webhooks go to", "imports read")}`);
    throw err;
  }
}

async function getPinned(raw: string): Promise<http.IncomingMessage> {
  let target: Awaited<ReturnType<typeof resolveDeliverableUrl>>;
  try {
    target = await resolveDeliverableUrl(raw, importUrlPolicy());
  } catch (err) {
    if (err instanceof WebhookUrlError) throw new AppError("invalid_input", `${raw}: ${err.message.replace("webhooks go to", "imports read")}`);
    throw err;
  }
  const transport = target.url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const req = transport.get(target.url, { lookup: pinnedLookup(target), headers: { "User-Agent": "Adloom-Import/1.0" } }, (res) => {
      clearTimeout(timer);
      resolve(res);
    });
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${RESPONSE_TIMEOUT_MS / 1000} s`)), RESPONSE_TIMEOUT_MS);
    req.on("error", (err) => {
      clearTimeout(timer);
      reject(new AppError("upstream_error", `${raw} could not be read: ${err.message}`));
    });
  });
}

/** The URL's last path segment, decoded (`a%20b.png` → `a b.png`); as written when it is not valid percent-encoding. */
function fileNameOf(url: URL): string {
  const last = url.pathname.split("/").filter(Boolean).pop();
  if (!last) return url.hostname;
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}
