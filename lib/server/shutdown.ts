import { subscribe } from "node:diagnostics_channel";
import http from "node:http";
import { defineService, disposeServices, getConfig } from "@/lib/services";
import { log } from "@/lib/log";

/**
 * Graceful shutdown on SIGTERM or SIGINT (the start script runs `next start` with
 * NEXT_MANUAL_SIG_HANDLE=1, so these handlers are the only ones):
 *   1. readiness answers 503 at once (load balancers stop sending);
 *   2. the HTTP server stops accepting connections and finishes the requests in flight, while the
 *      embedded runner stops claiming and hands each run back after the step it is in, and webhook
 *      first attempts in flight are sent and recorded (lib/webhooks/first-attempts.ts);
 *   3. the operator socket and the database close, and the process exits 0.
 * Whatever is still running after SHUTDOWN_TIMEOUT_MS is cut off (connections closed, leases
 * released), so a stuck client cannot hold a rolling restart.
 */
interface ShutdownState {
  draining: boolean;
  installed: boolean;
  servers: Set<http.Server>;
}

const shutdownState = defineService<ShutdownState>("server.shutdown", () => ({ draining: false, installed: false, servers: new Set() }));

/** True once shutdown has begun (readiness then fails). */
export function isDraining(): boolean {
  return shutdownState().draining;
}

export function installGracefulShutdown(): void {
  if (shutdownState().installed) return;
  shutdownState().installed = true;
  // Next.js does not hand its HTTP server to the app; the first request through it names it.
  subscribe("http.server.request.start", (message) => {
    const { server } = message as { server?: http.Server };
    if (server && !shutdownState().servers.has(server) && typeof server.address() !== "string") shutdownState().servers.add(server);
  });
  // `on`, not `once`: a second signal (the start script forwards the one its process group got)
  // must not fall through to Node's default, which would kill the process mid-drain.
  for (const signal of ["SIGTERM", "SIGINT"] as const) process.on(signal, () => void shutdown(signal));
}

async function shutdown(signal: NodeJS.Signals): Promise<void> {
  if (shutdownState().draining) return;
  shutdownState().draining = true;
  const { shutdownTimeoutMs, jobs } = getConfig();
  const started = Date.now();
  log.info("shutting down", { signal, timeoutMs: shutdownTimeoutMs });
  const force = setTimeout(() => {
    log.error("shutdown did not finish in time; exiting", { timeoutMs: shutdownTimeoutMs + 5_000 });
    process.exit(1);
  }, shutdownTimeoutMs + 5_000);
  force.unref();
  try {
    await Promise.all([
      closeHttpServers(shutdownTimeoutMs),
      jobs.mode === "embedded" ? import("@/lib/jobs/embedded").then((m) => m.stopEmbeddedRunnerWithin(shutdownTimeoutMs)) : undefined,
      import("@/lib/webhooks/first-attempts").then((m) => m.stopFirstAttemptsNow()),
    ]);
    await disposeServices(); // the operator socket, the database and the rest, newest first
    log.info("shut down", { ms: Date.now() - started });
    process.exit(0);
  } catch (err) {
    log.error("shutdown failed", { err });
    process.exit(1);
  }
}

/** Stops accepting, lets requests in flight finish (closing each connection as it goes idle), then resolves. */
async function closeHttpServers(timeoutMs: number): Promise<void> {
  const servers = [...shutdownState().servers, ...listeningHttpServers()].filter((s, i, all) => all.indexOf(s) === i && s.listening);
  await Promise.all(
    servers.map(
      (server) =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          // Keep-alive connections become idle only after their current response: close them as they do.
          const idle = setInterval(() => server.closeIdleConnections(), 50);
          const cut = setTimeout(() => server.closeAllConnections(), timeoutMs);
          server.once("close", () => {
            clearInterval(idle);
            clearTimeout(cut);
          });
          server.closeIdleConnections();
        }),
    ),
  );
}

/** TCP HTTP servers of this process not yet seen by a request (a shutdown right after the start). */
function listeningHttpServers(): http.Server[] {
  const handles = (process as unknown as { _getActiveHandles?: () => unknown[] })._getActiveHandles?.() ?? [];
  return handles.filter((h): h is http.Server => h instanceof http.Server && h.listening && typeof h.address() !== "string");
}
