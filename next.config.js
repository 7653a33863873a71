// Static security headers for every response (pages also get a nonce CSP from proxy.ts); the values
// live in lib/observability/security-headers.ts, repeated here because this file is plain JS.
const SECURITY_HEADERS = [
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
  { key: "X-Frame-Options", value: "DENY" },
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=()" },
];
const API_CSP = [{ key: "Content-Security-Policy", value: "default-src 'none'; frame-ancestors 'none'; sandbox" }];
/**
 * CORS for the API-key surfaces (docs/decisions.md): any origin may call with a Bearer key;
 * no credentials (the dashboard's session cookie is never accepted cross-site, see
 * lib/http/authenticate.ts); preflights are answered by the routes' OPTIONS (204), and the
 * headers a client reads are exposed.
 */
const CORS_HEADERS = [
  { key: "Access-Control-Allow-Origin", value: "*" },
  { key: "Access-Control-Allow-Methods", value: "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS" },
  {
    key: "Access-Control-Allow-Headers",
    value:
      "Authorization, Content-Type, Idempotency-Key, If-None-Match, If-Modified-Since, Range, Last-Event-ID, " +
      // Resumable (tus) uploads: lib/uploads/resumable-uploads.ts
      "Tus-Resumable, Upload-Length, Upload-Metadata, Upload-Offset, Upload-Defer-Length",
  },
  {
    key: "Access-Control-Expose-Headers",
    value:
      "X-Request-Id, ETag, Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Idempotent-Replayed, " +
      "Content-Length, Content-Range, Content-Disposition, Accept-Ranges, Last-Modified, " +
      "Location, Tus-Resumable, Tus-Version, Tus-Extension, Tus-Max-Size, Upload-Offset, Upload-Length, Upload-Expires, Upload-Metadata",
  },
  { key: "Access-Control-Max-Age", value: "600" },
];

/** @type {import('next').NextConfig} */
const nextConfig = {
  // Tests and parallel work build into their own folder so two builds never share one.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  poweredByHeader: false,
  // Next loads every route's module when it starts, by default; a server here answers a handful of routes
  // per start in tests (~80 starts per npm test), so each loads on its first request instead (docs/testing.md).
  experimental: {
    preloadEntriesOnStart: false,
    // Turbopack's build cache (~200 MB in .next/cache) makes a rebuild after an edit faster; a CI run builds once from
    // a clean checkout and never reads it back: writing it cost 7-26 CPU-s of the build there (docs/testing.md).
    turbopackFileSystemCacheForBuild: !process.env.CI,
  },
  async headers() {
    return [
      { source: "/:path*", headers: SECURITY_HEADERS },
      { source: "/api/:path*", headers: API_CSP },
      { source: "/docs/openapi.json", headers: API_CSP },
      { source: "/api/v1/:path*", headers: CORS_HEADERS },
      { source: "/api/media/:path*", headers: CORS_HEADERS },
      // /api/mcp answers CORS itself: only allowed origins, named (lib/mcp/origin.ts).
    ];
  },
  // `npm test` type-checks the whole project (tsc --noEmit) once; the build skips it
  // so that a start does not pay for checking tests and scripts.
  typescript: { ignoreBuildErrors: true },
  // Pages API routes (/api/media) load node_modules as external ESM, where next-auth's
  // extensionless `import "next/server"` fails; bundling it works in both routers.
  // @adloom/pglite-driver and @adloom/job-runner (packages/) are workspace packages shipped as TypeScript source.
  transpilePackages: ["next-auth", "@adloom/pglite-driver", "@adloom/job-runner"],
  // Native or WASM packages that must be loaded from node_modules at run time, not bundled.
  serverExternalPackages: [
    "@electric-sql/pglite",
    "pglite-prisma-adapter",
    "@prisma/adapter-pg",
    "@prisma/migrate",
    "@prisma/schema-engine-wasm",
    "@prisma/driver-adapter-utils",
    "pg",
    "busboy",
    "@aws-sdk/lib-storage",
    "sharp",
    "inngest",
    "prom-client",
    "nodemailer",
  ],
};

export default nextConfig;
