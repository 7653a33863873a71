import client from "prom-client";
import { defineService } from "@/lib/services";

/**
 * The process's Prometheus metrics (served at METRICS_PATH, see app/api/[...path]/route.ts).
 * One registry per process, a service of the registry (lib/services.ts): Next.js loads instrumentation
 * and each route bundle as separate module graphs, and all of them must count into the same registry.
 */
interface Metrics {
  registry: client.Registry;
  httpRequests: client.Counter<"method" | "route" | "status">;
  httpDuration: client.Histogram<"method" | "route">;
  jobRuns: client.Counter<"function" | "outcome">;
  webhookAttempts: client.Counter<"outcome">;
}

type QueueDepthSource = () => Promise<Record<string, number>>;
const queueDepth = defineService("observability.queue-depth", () => ({ source: undefined as QueueDepthSource | undefined }));
const metricsService = defineService("observability.metrics", () => create());

function create(): Metrics {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry, prefix: "adloom_" });
  const metrics: Metrics = {
    registry,
    httpRequests: new client.Counter({
      name: "adloom_http_requests_total",
      help: "HTTP requests answered, by method, route pattern and status",
      labelNames: ["method", "route", "status"],
      registers: [registry],
    }),
    httpDuration: new client.Histogram({
      name: "adloom_http_request_duration_seconds",
      help: "Time from the request's arrival to the end of its response, by method and route pattern",
      labelNames: ["method", "route"],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [registry],
    }),
    jobRuns: new client.Counter({
      name: "adloom_job_runs_total",
      help: "Job runs that ended in this process, by function and outcome (completed or failed)",
      labelNames: ["function", "outcome"],
      registers: [registry],
    }),
    webhookAttempts: new client.Counter({
      name: "adloom_webhook_attempts_total",
      help: "Webhook delivery attempts made by this process, by outcome (succeeded or failed)",
      labelNames: ["outcome"],
      registers: [registry],
    }),
  };
  new client.Gauge({
    name: "adloom_job_queue_depth",
    help: "Unfinished job runs in the database (all instances), by state: due (waiting for a runner), running (leased), scheduled (waiting for a time or an event)",
    labelNames: ["state"],
    registers: [registry],
    async collect() {
      const depth = await queueDepth()
        .source?.()
        .catch(() => undefined);
      this.reset();
      for (const [state, n] of Object.entries(depth ?? {})) this.set({ state }, n);
    },
  });
  return metrics;
}

export function metrics(): Metrics {
  return metricsService();
}

/** Registers how the queue depth is read (the database is not this module's concern). */
export function setQueueDepthSource(source: () => Promise<Record<string, number>>): void {
  queueDepth().source = source;
}

export function recordJobRunEnded(functionId: string, outcome: "completed" | "failed"): void {
  metrics().jobRuns.inc({ function: functionId, outcome });
}

export function recordWebhookAttempt(outcome: "succeeded" | "failed"): void {
  metrics().webhookAttempts.inc({ outcome });
}
