import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Page } from "@playwright/test";

/**
 * A proxy in front of the server that sends HTML documents in small pieces with a pause after each, the way
 * a slow connection delivers them: Chromium paints the part of the page it has, again and again, so a layout
 * that moves what is already painted when more arrives shows up as layout shifts. Everything else passes
 * through as it comes. Cookies are per host, not per port, so the browser's session works through it.
 */
export async function startSlowDocumentProxy(
  target: string,
  { pieceBytes = 2048, pauseMs = 40 }: { pieceBytes?: number; pauseMs?: number } = {},
): Promise<{ url: string; close: () => Promise<void> }> {
  const upstream = new URL(target);
  const server = http.createServer((req, res) => {
    const forwarded = http.request(
      {
        host: upstream.hostname,
        port: upstream.port,
        path: req.url,
        method: req.method,
        // Uncompressed, so each piece is a piece of the document and not of a gzip stream.
        headers: { ...req.headers, host: upstream.host, "accept-encoding": "identity" },
      },
      async (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        if (!String(answer.headers["content-type"]).startsWith("text/html")) return void answer.pipe(res);
        try {
          for await (const chunk of answer as AsyncIterable<Buffer>) {
            for (let at = 0; at < chunk.length; at += pieceBytes) {
              res.write(chunk.subarray(at, at + pieceBytes));
              await new Promise((resolve) => setTimeout(resolve, pauseMs));
            }
          }
          res.end();
        } catch {
          res.destroy(); // the server broke off mid-document: so does the proxy, as a real connection would
        }
      },
    );
    forwarded.on("error", () => res.destroy());
    req.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A layout shift the user did not cause, with what moved: "DIV#id.classes [text]: {x,y,w,h} -> {x,y,w,h}". */
export interface LayoutShift {
  at: number;
  score: number;
  moved: string[];
}

/** Records every layout shift of the pages `page` opens from now on (read them with `layoutShifts`). */
export async function watchLayoutShifts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    type Source = { node: Node | null; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly };
    type Shift = PerformanceEntry & { value: number; hadRecentInput: boolean; sources: Source[] };
    const shifts: { at: number; score: number; moved: string[] }[] = [];
    (window as unknown as { __layoutShifts: typeof shifts }).__layoutShifts = shifts;
    const rect = (r: DOMRectReadOnly) => `{${Math.round(r.x)},${Math.round(r.y)},${Math.round(r.width)},${Math.round(r.height)}}`;
    const describe = ({ node, previousRect, currentRect }: Source) => {
      const element = node as Element | null;
      const name = element ? `${element.nodeName}${element.id ? `#${element.id}` : ""}.${element.getAttribute?.("class") ?? ""}` : "(removed)";
      return `${name} [${(node?.textContent ?? "").slice(0, 40)}]: ${rect(previousRect)} -> ${rect(currentRect)}`;
    };
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as Shift[])
        if (!entry.hadRecentInput) shifts.push({ at: Math.round(entry.startTime), score: entry.value, moved: entry.sources.map(describe) });
    }).observe({ type: "layout-shift", buffered: true });
  });
}

export async function layoutShifts(page: Page): Promise<LayoutShift[]> {
  return page.evaluate(() => (window as unknown as { __layoutShifts: LayoutShift[] }).__layoutShifts);
}
