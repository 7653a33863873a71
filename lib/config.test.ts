import { describe, expect, it } from "vitest";
import { ConfigError, configurationWarnings, parseConfig } from "./config";

describe("parseConfig", () => {
  it("runs on embedded defaults with no environment at all", () => {
    const config = parseConfig({} as NodeJS.ProcessEnv);
    expect(config.port).toBe(3000);
    expect(config.database.kind).toBe("pglite");
    expect(config.jobs.mode).toBe("embedded");
    expect(config.storage.driver).toBe("local");
    expect(config.rateLimitPerMinute).toBeGreaterThanOrEqual(600);
    expect(config.webhooks.allowPrivateUrls).toBe(false);
  });

  it("switches to PostgreSQL and Inngest by their variables", () => {
    const config = parseConfig({ DATABASE_URL: "postgres://u@h/db", INNGEST_EVENT_KEY: "k" } as unknown as NodeJS.ProcessEnv);
    expect(config.database).toEqual({ kind: "postgres", url: "postgres://u@h/db" });
    expect(config.jobs.mode).toBe("inngest");
  });

  it("allows the public origin and the configured MCP_ALLOWED_ORIGINS to call MCP from a browser, origins only", () => {
    expect(parseConfig({ PUBLIC_BASE_URL: "https://adloom.example/" } as unknown as NodeJS.ProcessEnv).mcp.allowedOrigins).toEqual(["https://adloom.example"]);
    const config = parseConfig({ MCP_ALLOWED_ORIGINS: "http://localhost:6274, https://App.Example.com:443" } as unknown as NodeJS.ProcessEnv);
    expect(config.mcp.allowedOrigins).toEqual(["http://localhost:3000", "http://localhost:6274", "https://app.example.com"]);
    for (const bad of ["*", "https://app.example.com/path", "app.example.com", "ftp://x.example"]) {
      expect(() => parseConfig({ MCP_ALLOWED_ORIGINS: bad } as unknown as NodeJS.ProcessEnv)).toThrow(/MCP_ALLOWED_ORIGINS/);
    }
  });

  it("trusts no proxy's X-Forwarded-For unless TRUST_PROXY_HOPS says how many stand in front", () => {
    expect(parseConfig({} as NodeJS.ProcessEnv).http.trustProxyHops).toBe(0);
    expect(parseConfig({ TRUST_PROXY_HOPS: "2" } as unknown as NodeJS.ProcessEnv).http.trustProxyHops).toBe(2);
    for (const bad of ["-1", "true", "1.5"]) expect(() => parseConfig({ TRUST_PROXY_HOPS: bad } as unknown as NodeJS.ProcessEnv)).toThrow(/TRUST_PROXY_HOPS/);
  });

  it("warns that Google or GitHub sign-in without PUBLIC_BASE_URL works only at localhost", () => {
    const google = { AUTH_GOOGLE_ID: "id", AUTH_GOOGLE_SECRET: "secret" };
    const warnings = (env: Record<string, string>) => configurationWarnings(parseConfig(env as NodeJS.ProcessEnv));
    expect(warnings(google)).toEqual([
      "Google sign-in needs PUBLIC_BASE_URL (the address users reach the service at): without it their callback works only at localhost",
    ]);
    expect(warnings({ ...google, AUTH_GITHUB_ID: "id", AUTH_GITHUB_SECRET: "secret" })[0]).toMatch(/^Google and GitHub sign-in/);
    expect(warnings({ ...google, PUBLIC_BASE_URL: "https://ads.example.com" })).toEqual([]);
    expect(warnings({})).toEqual([]);
  });

  it("names every bad variable", () => {
    let error: ConfigError | undefined;
    try {
      parseConfig({ PORT: "http", RATE_LIMIT_PER_MINUTE: "-3", DATABASE_URL: "mysql://x", STORAGE_DRIVER: "ftp" } as unknown as NodeJS.ProcessEnv);
    } catch (err) {
      error = err as ConfigError;
    }
    expect(error).toBeInstanceOf(ConfigError);
    for (const name of ["PORT", "RATE_LIMIT_PER_MINUTE", "DATABASE_URL", "STORAGE_DRIVER"]) expect(error!.message).toContain(name);
  });

  it("reads the webhook retry schedule as durations", () => {
    expect(parseConfig({} as NodeJS.ProcessEnv).webhooks.retryScheduleMs).toEqual([60_000, 300_000, 900_000, 1_800_000, 3_600_000, 28_800_000]);
    expect(parseConfig({ WEBHOOK_RETRY_SCHEDULE: "500ms, 1.5s,2m" } as unknown as NodeJS.ProcessEnv).webhooks.retryScheduleMs).toEqual([500, 1500, 120_000]);
    expect(parseConfig({ WEBHOOK_RETRY_SCHEDULE: "none" } as unknown as NodeJS.ProcessEnv).webhooks.retryScheduleMs).toEqual([]);
    expect(() => parseConfig({ WEBHOOK_RETRY_SCHEDULE: "1m,soon" } as unknown as NodeJS.ProcessEnv)).toThrow(
      /WEBHOOK_RETRY_SCHEDULE: "soon" is not a duration/,
    );
  });

  it("requires a bucket for S3 storage", () => {
    expect(() => parseConfig({ STORAGE_DRIVER: "s3" } as unknown as NodeJS.ProcessEnv)).toThrow(/S3_BUCKET/);
  });
});
