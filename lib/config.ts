import path from "node:path";
import { z } from "zod";
import { HTTP_EDGE_DEFAULTS } from "@/lib/http-edge-defaults.mjs";

/**
 * Every environment variable the service reads, validated once into a typed object.
 * A wrong value stops the start with a message naming the variable.
 * Later capabilities add their variables here, in their own section.
 */
const flag = z
  .enum(["0", "1", "true", "false", ""])
  .optional()
  .transform((v) => v === "1" || v === "true");

/** Like `flag`, but on unless set to 0 or false. */
const flagDefaultOn = z
  .enum(["0", "1", "true", "false", ""])
  .optional()
  .transform((v) => !(v === "0" || v === "false"));

const positiveInt = (fallback: number) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === "") return fallback;
      const n = Number(v);
      if (!Number.isInteger(n) || n <= 0) {
        ctx.addIssue({ code: "custom", message: `must be a positive integer, got "${v}"` });
        return z.NEVER;
      }
      return n;
    });

/** A whole number from 0 up (digits only). */
const nonNegativeInt = (fallback: number) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === "") return fallback;
      if (!/^\d+$/.test(v)) {
        ctx.addIssue({ code: "custom", message: `must be a whole number (0 or more), got "${v}"` });
        return z.NEVER;
      }
      return Number(v);
    });

/** A TCP port to listen on: 1 to 65535, digits only (a "1e3" or "0x10" would be read one way here and another by Next). */
const port = (fallback: number) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === "") return fallback;
      const n = Number(v);
      if (!/^\d+$/.test(v) || n < 1 || n > 65535) {
        ctx.addIssue({ code: "custom", message: `must be a port number from 1 to 65535, got "${v}"` });
        return z.NEVER;
      }
      return n;
    });

const DURATION_UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** A comma-separated list of durations like "1m,5m,1h" (units ms, s, m, h; "none" or "" for none) in milliseconds. */
const durationList = (fallback: string) =>
  z
    .string()
    .optional()
    .default(fallback)
    .transform((v, ctx) => {
      const text = v.trim();
      if (text === "" || text === "none") return [];
      const ms: number[] = [];
      for (const entry of text.split(",")) {
        const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)\s*$/.exec(entry);
        if (!match) {
          ctx.addIssue({ code: "custom", message: `"${entry.trim()}" is not a duration like 500ms, 30s, 5m or 2h` });
          return z.NEVER;
        }
        ms.push(Math.round(Number(match[1]) * DURATION_UNIT_MS[match[2]!]!));
      }
      return ms;
    });

/** A comma-separated list of web origins (`scheme://host[:port]`, no path), normalized as browsers send them. */
const originList = z
  .string()
  .optional()
  .transform((v, ctx) => {
    const origins: string[] = [];
    for (const entry of (v ?? "")
      .split(",")
      .map((e) => e.trim())
      .filter(Boolean)) {
      const url = URL.canParse(entry) ? new URL(entry) : undefined;
      if (!url || !/^https?:$/.test(url.protocol) || url.pathname !== "/" || url.search || url.hash || url.username || entry.endsWith("/")) {
        ctx.addIssue({
          code: "custom",
          message: `"${entry}" is not an origin like https://app.example.com or http://localhost:6274 (scheme, host and port only)`,
        });
        return z.NEVER;
      }
      origins.push(url.origin);
    }
    return origins;
  });

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).optional().default("production"),
  PORT: port(3000),
  /** Where the embedded database, media files and generated secrets live. */
  DATA_DIR: z.string().min(1).optional().default("./.data"),
  DATABASE_URL: z
    .string()
    .optional()
    .refine((v) => !v || /^postgres(ql)?:\/\//.test(v), "must be a postgres:// or postgresql:// URL"),
  /** Absolute base URL the service is reached at (links in emails, webhook samples). */
  PUBLIC_BASE_URL: z.url().optional(),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).optional().default("info"),

  // --- Email (password reset, invites): SMTP when set, else an outbox table the operator CLI lists.
  SMTP_URL: z
    .string()
    .optional()
    .refine((v) => !v || /^smtps?:\/\//.test(v), "must be an smtp:// or smtps:// URL, e.g. smtp://user:pass@mail.example.com:587"),
  MAIL_FROM: z.string().min(3).optional().default("Adloom <no-reply@adloom.local>"),
  /** Days a notification (and its deliveries) is kept once sent; the daily purge deletes older ones (docs/notifications.md). */
  NOTIFICATION_RETENTION_DAYS: positiveInt(90),

  // --- API behaviour
  RATE_LIMIT_PER_MINUTE: positiveInt(1200),

  // --- Background jobs: Inngest when its own variables are set, else the embedded runner.
  INNGEST_EVENT_KEY: z.string().optional(),
  INNGEST_SIGNING_KEY: z.string().optional(),
  INNGEST_DEV: z.string().optional(),
  INNGEST_BASE_URL: z.url().optional(),
  /**
   * How many job runs the embedded runner drives at once. Most runs wait on the network (a webhook
   * endpoint may take 5 s to answer), so the bound is about memory and fairness, not CPU: at 8,
   * deliveries queued behind busy slots while the CPU served the API (bench:webhooks p99 25 s); at 32
   * they keep pace with ingest (p99 0.3 s). Lower it on small machines running heavy upload jobs.
   */
  JOBS_CONCURRENCY: positiveInt(128),
  /**
   * The embedded runner's wait before a failed job step's first retry, in ms; each later retry waits twice as
   * long (±20%, at most an hour). Inngest applies its own schedule.
   */
  JOBS_STEP_RETRY_BASE_MS: positiveInt(10_000),

  // --- Webhooks
  WEBHOOKS_ALLOW_PRIVATE_URLS: flag,
  /** Waits before each background retry after the immediate one, e.g. "1m,5m,15m,30m,1h,8h" (ms, s, m, h). */
  WEBHOOK_RETRY_SCHEDULE: durationList("1m,5m,15m,30m,1h,8h"),

  // --- Media storage
  STORAGE_DRIVER: z.enum(["local", "s3"]).optional().default("local"),
  S3_BUCKET: z.string().optional(),
  S3_REGION: z.string().optional().default("us-east-1"),
  S3_ENDPOINT: z.url().optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: flag,

  // --- Ad platforms (lib/platforms)
  /** "sandbox" (default; offline, fault names steer it) or "live" (the real platform APIs). */
  PLATFORMS_MODE: z.enum(["sandbox", "live"]).optional().default("sandbox"),
  /** Waits between push attempts within one upload job run, in ms, comma-separated; attempts = entries + 1. */
  PLATFORM_RETRY_DELAYS_MS: z
    .string()
    .optional()
    .default("1000,3000,8000,15000")
    .refine((v) => v.split(",").every((d) => /^\s*\d+\s*$/.test(d)), "must be comma-separated non-negative integers (milliseconds)"),
  /** How long a push of a `sandbox-slow*` file takes in the sandbox (per chunk, for chunked pushes). */
  SANDBOX_SLOW_PUSH_MS: positiveInt(3000),
  /** Videos larger than this go to the platform in chunks of this size (bytes; default 8 MiB). */
  MEDIA_CHUNK_BYTES: positiveInt(8 * 1024 * 1024),
  /** How long an unfinished resumable (tus) upload may sit before it and its partial file are removed (seconds; default 24 h). */
  RESUMABLE_UPLOAD_EXPIRY_SECONDS: positiveInt(24 * 60 * 60),
  /** Calls per second a sandbox ad account allows (its burst is SANDBOX_ADS_BURST_SECONDS' worth). */
  SANDBOX_ADS_CALLS_PER_SECOND: positiveInt(50),
  /** How many seconds' worth of calls a sandbox ad account's burst holds (default 3). */
  SANDBOX_ADS_BURST_SECONDS: positiveInt(3),
  /** Live platform A (Meta's Graph API): base URL, version in paths, the app for OAuth (with the secret, every call carries appsecret_proof). */
  PLATFORM_A_API_URL: z.url().optional().default("https://graph.facebook.com"),
  PLATFORM_A_API_VERSION: z
    .string()
    .regex(/^v\d+\.\d+$/, "must be a Graph API version like v24.0")
    .optional()
    .default("v24.0"),
  PLATFORM_A_APP_ID: z.string().optional(),
  PLATFORM_A_APP_SECRET: z.string().optional(),
  /** Meta's Login dialog (default https://www.facebook.com/<version>/dialog/oauth); tests point it at a local fake. */
  PLATFORM_A_AUTHORIZE_URL: z.url().optional(),
  /** Live platform B (TikTok API for Business): base URL (paths /open_api/v1.3/...), the app for advertiser authorization. */
  PLATFORM_B_API_URL: z.url().optional().default("https://business-api.tiktok.com"),
  PLATFORM_B_APP_ID: z.string().optional(),
  PLATFORM_B_APP_SECRET: z.string().optional(),
  /** TikTok's advertiser authorization page; tests point it at a local fake. */
  PLATFORM_B_AUTHORIZE_URL: z.url().optional().default("https://business-api.tiktok.com/portal/auth"),
  /** TikTok's rate-limit codes (40100...) say no wait: the jobs wait this long before calling again. */
  PLATFORM_B_BUSY_WAIT_SECONDS: z.coerce.number().int().min(1).max(3600).optional().default(60),
  /** Google Drive import (docs/import.md): the OAuth client (Web application) and, for the Picker, its browser API key and project number. */
  GOOGLE_DRIVE_CLIENT_ID: z.string().optional(),
  GOOGLE_DRIVE_CLIENT_SECRET: z.string().optional(),
  GOOGLE_DRIVE_PICKER_API_KEY: z.string().optional(),
  GOOGLE_DRIVE_APP_ID: z.string().optional(),
  /** Google's consent page and OAuth token endpoint, and the Drive API's base (v3 paths are added); tests point them at local fakes. */
  GOOGLE_OAUTH_AUTHORIZE_URL: z.url().optional().default("https://accounts.google.com/o/oauth2/v2/auth"),
  GOOGLE_OAUTH_TOKEN_URL: z.url().optional().default("https://oauth2.googleapis.com/token"),
  /** Google's token revocation endpoint, called when a Drive connection is disconnected. */
  GOOGLE_OAUTH_REVOKE_URL: z.url().optional().default("https://oauth2.googleapis.com/revoke"),
  GOOGLE_DRIVE_API_URL: z.url().optional().default("https://www.googleapis.com"),
  /** Dropbox import (docs/import.md): the app (App folder access, or scoped full Dropbox) and its API hosts. */
  DROPBOX_APP_KEY: z.string().optional(),
  DROPBOX_APP_SECRET: z.string().optional(),
  DROPBOX_AUTHORIZE_URL: z.url().optional().default("https://www.dropbox.com/oauth2/authorize"),
  DROPBOX_API_URL: z.url().optional().default("https://api.dropboxapi.com"),
  DROPBOX_CONTENT_URL: z.url().optional().default("https://content.dropboxapi.com"),
  /** An imported file whose provider sends nothing for this long (or does not start sending) fails its item, freeing its job's slot. */
  IMPORT_DOWNLOAD_IDLE_TIMEOUT_MS: positiveInt(60_000),
  /** Encrypts stored platform and storage credentials (lib/credentials); generated into DATA_DIR when unset on the embedded database. */
  CREDENTIALS_KEY: z.string().min(32, "must be at least 32 characters (e.g. openssl rand -base64 32)").optional(),
  /** Earlier CREDENTIALS_KEY values (comma-separated), still accepted for reading while credentials are re-encrypted. */
  CREDENTIALS_KEY_PREVIOUS: z.string().optional(),
  /** 0 turns the scheduled lead-ads poll off (`admin leads pull` still pulls). */
  LEADS_POLL: flagDefaultOn,
  /** 0 turns the five-minute pull of ad comments off (`admin moderation pull` still pulls). */
  COMMENTS_POLL: flagDefaultOn,
  /** 0 turns the quarter-hourly sync of watched folders off (`sync_watched_folder` still syncs one). */
  IMPORT_SYNC: flagDefaultOn,

  // --- Request limits (docs/operations.md, "Limits and input checks"); the server applies the first four (lib/server/http-edge.mjs)
  HTTP_HEADERS_TIMEOUT_MS: positiveInt(HTTP_EDGE_DEFAULTS.HTTP_HEADERS_TIMEOUT_MS),
  HTTP_REQUEST_TIMEOUT_MS: positiveInt(HTTP_EDGE_DEFAULTS.HTTP_REQUEST_TIMEOUT_MS),
  HTTP_IDLE_TIMEOUT_MS: positiveInt(HTTP_EDGE_DEFAULTS.HTTP_IDLE_TIMEOUT_MS),
  HTTP_MAX_HEADER_BYTES: positiveInt(HTTP_EDGE_DEFAULTS.HTTP_MAX_HEADER_BYTES),
  /** A request body that sends nothing for this long is refused (400) and its connection closed. */
  BODY_IDLE_TIMEOUT_MS: positiveInt(30_000),
  /** A JSON body (at most 1 MB) must arrive whole within this. */
  JSON_BODY_TIMEOUT_MS: positiveInt(30_000),
  /**
   * How many reverse proxies in front of the server add the address they received from to X-Forwarded-For
   * (lib/observability/client-address.ts). 0: the header is ignored and the client is the connection's peer.
   */
  TRUST_PROXY_HOPS: nonNegativeInt(0),

  // --- Dashboard sign-in
  AUTH_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  /** Optional OAuth sign-in: each provider appears when both of its variables are set. */
  AUTH_GITHUB_ID: z.string().optional(),
  AUTH_GITHUB_SECRET: z.string().optional(),
  AUTH_GOOGLE_ID: z.string().optional(),
  AUTH_GOOGLE_SECRET: z.string().optional(),
  /**
   * The providers' endpoints; tests point them at local fakes. Google's is its OpenID issuer (discovery at
   * `/.well-known/openid-configuration` names the rest); GitHub's API base serves `/user` and `/user/emails`.
   */
  AUTH_GOOGLE_ISSUER: z.url().optional().default("https://accounts.google.com"),
  AUTH_GITHUB_AUTHORIZE_URL: z.url().optional().default("https://github.com/login/oauth/authorize"),
  AUTH_GITHUB_TOKEN_URL: z.url().optional().default("https://github.com/login/oauth/access_token"),
  AUTH_GITHUB_API_URL: z.url().optional().default("https://api.github.com"),

  // --- Operations (docs/operations.md)
  /** How long a SIGTERM waits for in-flight requests and job steps before closing anyway. */
  SHUTDOWN_TIMEOUT_MS: positiveInt(25_000),
  /** Where Prometheus metrics are served; only with METRICS_TOKEN set (else the path answers 404). */
  METRICS_PATH: z
    .string()
    .optional()
    .default("/api/metrics")
    .refine(
      (v) => /^\/api\/[a-z0-9][a-z0-9/_-]*$/.test(v) && !/^\/api\/(v1|mcp|media|auth|inngest|health|ready)(\/|$)/.test(v),
      "must be a path under /api/ that no other route uses, e.g. /api/metrics",
    ),
  /** Bearer token a scraper presents to read the metrics. */
  METRICS_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
  /** Lifetime of OAuth access tokens for MCP (seconds). */
  OAUTH_ACCESS_TOKEN_TTL_SECONDS: positiveInt(3600),
  /** Lifetime of OAuth authorization codes (seconds). */
  OAUTH_CODE_TTL_SECONDS: positiveInt(300),
  /** Dynamic client registrations accepted per minute, service-wide (the endpoint needs no credentials). */
  OAUTH_REGISTRATIONS_PER_MINUTE: positiveInt(30),

  // --- MCP (docs/tools.md): browser origins besides PUBLIC_BASE_URL's that may call /api/mcp
  MCP_ALLOWED_ORIGINS: originList,
  // --- The AI assistant (docs/ai.md): a provider through the Vercel AI SDK; without one, generating tools answer not_connected
  AI_PROVIDER: z.enum(["openai", "anthropic", "openai-compatible", ""]).optional(),
  AI_MODEL: z.string().max(200).optional(),
  AI_API_KEY: z.string().optional(),
  /** Required for openai-compatible (e.g. http://localhost:11434/v1 for Ollama); optional for the others (a proxy). */
  AI_BASE_URL: z.url().optional(),
  /** "input,output": credits per million tokens for the configured model, overriding the price table (self-hosted models). */
  AI_CREDITS_PER_MILLION_TOKENS: z
    .string()
    .optional()
    .refine((v) => !v || /^\s*\d+(\.\d+)?\s*,\s*\d+(\.\d+)?\s*$/.test(v), 'must be "input,output" credits per million tokens, e.g. "150,600"'),
});

export type Env = z.infer<typeof envSchema>;

export interface Config {
  env: Env["NODE_ENV"];
  port: number;
  dataDir: string;
  publicBaseUrl: string;
  logLevel: Env["LOG_LEVEL"];
  database: { kind: "pglite"; dir: string } | { kind: "postgres"; url: string };
  rateLimitPerMinute: number;
  jobs: {
    mode: "embedded" | "inngest";
    concurrency: number;
    /** The embedded runner's first step-retry wait (ms), doubled for each later retry. */
    stepRetryBaseMs: number;
    eventKey?: string;
    signingKey?: string;
    dev: boolean;
    baseUrl?: string;
  };
  webhooks: { allowPrivateUrls: boolean; retryScheduleMs: number[] };
  storage:
    | { driver: "local"; dir: string }
    | { driver: "s3"; bucket: string; region: string; endpoint?: string; accessKeyId?: string; secretAccessKey?: string; forcePathStyle: boolean };
  /** Resumable (tus) uploads: where unfinished uploads are staged (local disk, whatever the storage driver) and how long they live. */
  resumableUploads: { dir: string; expiryMs: number };
  platforms: {
    mode: "sandbox" | "live";
    retryDelaysMs: number[];
    sandboxSlowPushMs: number;
    /** Chunk size of resumable media pushes (lib/media-push); larger videos are sent in chunks. */
    mediaChunkBytes: number;
    sandboxAdsCallsPerSecond: number;
    sandboxAdsBurstSeconds: number;
    /** The live platforms' wire settings (lib/platforms/live). */
    platformA: { apiUrl: string; apiVersion: string; appId?: string; appSecret?: string; authorizeUrl?: string };
    platformB: { apiUrl: string; appId?: string; appSecret?: string; busyWaitSeconds: number; authorizeUrl: string };
  };
  /** File-storage providers connected by OAuth for import (lib/import/sources); an app without its id and secret cannot be connected. */
  storageProviders: {
    googleDrive: {
      clientId?: string;
      clientSecret?: string;
      pickerApiKey?: string;
      appId?: string;
      authorizeUrl: string;
      tokenUrl: string;
      revokeUrl: string;
      apiUrl: string;
    };
    dropbox: { appKey?: string; appSecret?: string; authorizeUrl: string; apiUrl: string; contentUrl: string };
    /** A download that sends nothing for this long fails (ms). */
    downloadIdleTimeoutMs: number;
    /** Whether the quarter-hourly sync of watched folders runs. */
    scheduledSync: boolean;
  };
  /** Stored-credential encryption keys (lib/credentials): the current one (unset: generated, embedded database only) and earlier ones. */
  credentials: { key?: string; previousKeys: string[] };
  /** Lead ads: whether the every-minute poll runs. */
  leads: { pollEnabled: boolean };
  comments: { pollEnabled: boolean };
  /**
   * Deadlines for reading requests (ms), and how many proxies' X-Forwarded-For entries are trusted when telling
   * the client's address (0: none, the connection's peer is the client).
   */
  http: {
    headersTimeoutMs: number;
    requestTimeoutMs: number;
    idleTimeoutMs: number;
    bodyIdleTimeoutMs: number;
    jsonBodyTimeoutMs: number;
    trustProxyHops: number;
  };
  authSecret?: string;
  /** Auth.js's own URL (the OAuth callbacks' redirect URI): PUBLIC_BASE_URL when it is set, else the request's. */
  authUrl?: string;
  /** Outgoing email: through SMTP when `smtpUrl` is set, else into the database outbox. */
  mail: { smtpUrl?: string; from: string };
  /** Notifications to people: how many days they are kept after being sent. */
  notifications: { retentionDays: number };
  /** OAuth providers offered on the sign-in page (only those fully configured). */
  oauth: {
    github?: { clientId: string; clientSecret: string; authorizeUrl: string; tokenUrl: string; apiUrl: string };
    google?: { clientId: string; clientSecret: string; issuer: string };
  };
  shutdownTimeoutMs: number;
  metrics: { path: string; token?: string };
  /** The OAuth 2.1 authorization server for MCP (lib/oauth). */
  oauthServer: { accessTokenTtlSeconds: number; codeTtlSeconds: number; registrationsPerMinute: number };
  /** Browser origins allowed to call /api/mcp: PUBLIC_BASE_URL's origin, then MCP_ALLOWED_ORIGINS. */
  mcp: { allowedOrigins: string[] };
  /** The AI provider (docs/ai.md); null when none is configured. */
  ai: AiProviderConfig | null;
}

export interface AiProviderConfig {
  provider: "openai" | "anthropic" | "openai-compatible";
  model: string;
  apiKey?: string;
  baseUrl?: string;
  /** Credits per million input and output tokens, when set by AI_CREDITS_PER_MILLION_TOKENS. */
  price?: { input: number; output: number };
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

/** Parses an environment into a Config; throws ConfigError naming every bad variable. */
/**
 * What a configuration that parses still gets wrong, as sentences for the start's log: settings that start a server
 * on which a feature cannot work.
 */
export function configurationWarnings(config: Config): string[] {
  const warnings: string[] = [];
  const providers = [config.oauth.google && "Google", config.oauth.github && "GitHub"].filter(Boolean);
  if (providers.length && !config.authUrl) {
    warnings.push(
      `${providers.join(" and ")} sign-in needs PUBLIC_BASE_URL (the address users reach the service at): without it their callback works only at localhost`,
    );
  }
  return warnings;
}

export function parseConfig(source: NodeJS.ProcessEnv): Config {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`));
  }
  const e = parsed.data;
  const problems: string[] = [];
  const dataDir = path.resolve(e.DATA_DIR);
  const inngest = Boolean(e.INNGEST_EVENT_KEY || e.INNGEST_DEV);
  if (e.STORAGE_DRIVER === "s3" && !e.S3_BUCKET) problems.push("S3_BUCKET: required when STORAGE_DRIVER=s3");
  const ai = aiProviderOf(e, problems);
  if (problems.length) throw new ConfigError(problems);
  const publicBaseUrl = (e.PUBLIC_BASE_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, "");

  return {
    env: e.NODE_ENV,
    port: e.PORT,
    dataDir,
    publicBaseUrl,
    logLevel: e.LOG_LEVEL,
    mail: { smtpUrl: e.SMTP_URL || undefined, from: e.MAIL_FROM },
    notifications: { retentionDays: e.NOTIFICATION_RETENTION_DAYS },
    database: e.DATABASE_URL ? { kind: "postgres", url: e.DATABASE_URL } : { kind: "pglite", dir: path.join(dataDir, "db") },
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    jobs: {
      mode: inngest ? "inngest" : "embedded",
      concurrency: e.JOBS_CONCURRENCY,
      stepRetryBaseMs: e.JOBS_STEP_RETRY_BASE_MS,
      eventKey: e.INNGEST_EVENT_KEY,
      signingKey: e.INNGEST_SIGNING_KEY,
      dev: Boolean(e.INNGEST_DEV && e.INNGEST_DEV !== "0"),
      baseUrl: e.INNGEST_BASE_URL,
    },
    webhooks: { allowPrivateUrls: e.WEBHOOKS_ALLOW_PRIVATE_URLS, retryScheduleMs: e.WEBHOOK_RETRY_SCHEDULE },
    storage:
      e.STORAGE_DRIVER === "s3"
        ? {
            driver: "s3",
            bucket: e.S3_BUCKET!,
            region: e.S3_REGION,
            endpoint: e.S3_ENDPOINT,
            accessKeyId: e.S3_ACCESS_KEY_ID,
            secretAccessKey: e.S3_SECRET_ACCESS_KEY,
            forcePathStyle: e.S3_FORCE_PATH_STYLE,
          }
        : { driver: "local", dir: path.join(dataDir, "media") },
    resumableUploads: { dir: path.join(dataDir, "tus"), expiryMs: e.RESUMABLE_UPLOAD_EXPIRY_SECONDS * 1000 },
    platforms: {
      mode: e.PLATFORMS_MODE,
      retryDelaysMs: e.PLATFORM_RETRY_DELAYS_MS.split(",").map((d) => Number(d.trim())),
      sandboxSlowPushMs: e.SANDBOX_SLOW_PUSH_MS,
      mediaChunkBytes: e.MEDIA_CHUNK_BYTES,
      sandboxAdsCallsPerSecond: e.SANDBOX_ADS_CALLS_PER_SECOND,
      sandboxAdsBurstSeconds: e.SANDBOX_ADS_BURST_SECONDS,
      platformA: {
        apiUrl: e.PLATFORM_A_API_URL.replace(/\/$/, ""),
        apiVersion: e.PLATFORM_A_API_VERSION,
        appId: e.PLATFORM_A_APP_ID || undefined,
        appSecret: e.PLATFORM_A_APP_SECRET || undefined,
        authorizeUrl: e.PLATFORM_A_AUTHORIZE_URL,
      },
      platformB: {
        apiUrl: e.PLATFORM_B_API_URL.replace(/\/$/, ""),
        appId: e.PLATFORM_B_APP_ID || undefined,
        appSecret: e.PLATFORM_B_APP_SECRET || undefined,
        busyWaitSeconds: e.PLATFORM_B_BUSY_WAIT_SECONDS,
        authorizeUrl: e.PLATFORM_B_AUTHORIZE_URL,
      },
    },
    storageProviders: {
      googleDrive: {
        clientId: e.GOOGLE_DRIVE_CLIENT_ID || undefined,
        clientSecret: e.GOOGLE_DRIVE_CLIENT_SECRET || undefined,
        pickerApiKey: e.GOOGLE_DRIVE_PICKER_API_KEY || undefined,
        appId: e.GOOGLE_DRIVE_APP_ID || undefined,
        authorizeUrl: e.GOOGLE_OAUTH_AUTHORIZE_URL,
        tokenUrl: e.GOOGLE_OAUTH_TOKEN_URL,
        revokeUrl: e.GOOGLE_OAUTH_REVOKE_URL,
        apiUrl: e.GOOGLE_DRIVE_API_URL.replace(/\/$/, ""),
      },
      dropbox: {
        appKey: e.DROPBOX_APP_KEY || undefined,
        appSecret: e.DROPBOX_APP_SECRET || undefined,
        authorizeUrl: e.DROPBOX_AUTHORIZE_URL,
        apiUrl: e.DROPBOX_API_URL.replace(/\/$/, ""),
        contentUrl: e.DROPBOX_CONTENT_URL.replace(/\/$/, ""),
      },
      downloadIdleTimeoutMs: e.IMPORT_DOWNLOAD_IDLE_TIMEOUT_MS,
      scheduledSync: e.IMPORT_SYNC,
    },
    credentials: {
      key: e.CREDENTIALS_KEY || undefined,
      previousKeys: (e.CREDENTIALS_KEY_PREVIOUS ?? "")
        .split(",")
        .map((k) => k.trim())
        .filter(Boolean),
    },
    leads: { pollEnabled: e.LEADS_POLL },
    comments: { pollEnabled: e.COMMENTS_POLL },
    http: {
      headersTimeoutMs: e.HTTP_HEADERS_TIMEOUT_MS,
      requestTimeoutMs: e.HTTP_REQUEST_TIMEOUT_MS,
      idleTimeoutMs: e.HTTP_IDLE_TIMEOUT_MS,
      bodyIdleTimeoutMs: e.BODY_IDLE_TIMEOUT_MS,
      jsonBodyTimeoutMs: e.JSON_BODY_TIMEOUT_MS,
      trustProxyHops: e.TRUST_PROXY_HOPS,
    },
    authSecret: e.AUTH_SECRET,
    authUrl: e.PUBLIC_BASE_URL ? publicBaseUrl : undefined,
    oauth: {
      ...(e.AUTH_GITHUB_ID && e.AUTH_GITHUB_SECRET
        ? {
            github: {
              clientId: e.AUTH_GITHUB_ID,
              clientSecret: e.AUTH_GITHUB_SECRET,
              authorizeUrl: e.AUTH_GITHUB_AUTHORIZE_URL,
              tokenUrl: e.AUTH_GITHUB_TOKEN_URL,
              apiUrl: e.AUTH_GITHUB_API_URL.replace(/\/$/, ""),
            },
          }
        : {}),
      ...(e.AUTH_GOOGLE_ID && e.AUTH_GOOGLE_SECRET
        ? { google: { clientId: e.AUTH_GOOGLE_ID, clientSecret: e.AUTH_GOOGLE_SECRET, issuer: e.AUTH_GOOGLE_ISSUER.replace(/\/$/, "") } }
        : {}),
    },
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    metrics: { path: e.METRICS_PATH, token: e.METRICS_TOKEN },
    oauthServer: {
      accessTokenTtlSeconds: e.OAUTH_ACCESS_TOKEN_TTL_SECONDS,
      codeTtlSeconds: e.OAUTH_CODE_TTL_SECONDS,
      registrationsPerMinute: e.OAUTH_REGISTRATIONS_PER_MINUTE,
    },
    mcp: { allowedOrigins: [...new Set([new URL(publicBaseUrl).origin, ...e.MCP_ALLOWED_ORIGINS])] },
    ai,
  };
}

/** The AI provider the variables describe, or null; what is missing goes to `problems`. */
function aiProviderOf(e: Env, problems: string[]): AiProviderConfig | null {
  if (!e.AI_PROVIDER) {
    for (const name of ["AI_MODEL", "AI_API_KEY", "AI_BASE_URL"] as const)
      if (e[name]) problems.push(`${name}: set, but AI_PROVIDER is not (openai, anthropic or openai-compatible)`);
    return null;
  }
  if (!e.AI_MODEL)
    problems.push(
      `AI_MODEL: required when AI_PROVIDER is set (e.g. ${e.AI_PROVIDER === "anthropic" ? "claude-haiku-4-5" : e.AI_PROVIDER === "openai" ? "gpt-4o-mini" : "llama3.1"})`,
    );
  if (e.AI_PROVIDER !== "openai-compatible" && !e.AI_API_KEY) problems.push(`AI_API_KEY: required when AI_PROVIDER=${e.AI_PROVIDER}`);
  if (e.AI_PROVIDER === "openai-compatible" && !e.AI_BASE_URL)
    problems.push("AI_BASE_URL: required when AI_PROVIDER=openai-compatible (e.g. http://localhost:11434/v1)");
  const price = e.AI_CREDITS_PER_MILLION_TOKENS?.split(",").map((n) => Number(n.trim()));
  return {
    provider: e.AI_PROVIDER,
    model: e.AI_MODEL ?? "",
    apiKey: e.AI_API_KEY || undefined,
    baseUrl: e.AI_BASE_URL?.replace(/\/$/, ""),
    ...(price ? { price: { input: price[0]!, output: price[1]! } } : {}),
  };
}
