// Static security headers for every response (pages also get a nonce CSP from proxy.ts); the values
// live in lib/observability/security-headers.ts, repeated here because this file is plain JS.
const SECURITY_HEADERS = [
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
  { key: "X-Frame-Options", value: "DENY" },
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=()" },
];
const API_CSP = [{ key: "Content-Security-Policy", value: "default-src 'none'; frame-ancestors 'none'; sandbox" }];

/** @type {import('next').NextConfig} */
const nextConfig = {
  // Tests and parallel work build into their own folder so two builds never share one.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  poweredByHeader: false,
  async headers() {
    return [
      { source: "/:path*", headers: SECURITY_HEADERS },
      { source: "/api/:path*", headers: API_CSP },
      { source: "/docs/openapi.json", headers: API_CSP },
    ];
  },
  // `npm test` type-checks the whole project (tsc --noEmit) once; the build skips it
  // so that a start does not pay for checking tests and scripts.
  typescript: { ignoreBuildErrors: true },
  // Pages API routes (/api/media) load node_modules as external ESM, where next-auth's
  // extensionless `import "next/server"` fails; bundling it works in both routers.
  transpilePackages: ["next-auth"],
  // Native or WASM packages that must be loaded from node_modules at run time, not bundled.
  serverExternalPackages: [
    "@electric-sql/pglite",
    "@electric-sql/pglite-socket",
    "pglite-prisma-adapter",
    "@prisma/adapter-pg",
    "@prisma/migrate",
    "@prisma/driver-adapter-utils",
    "pg",
    "busboy",
    "@aws-sdk/lib-storage",
    "sharp",
    "inngest",
    "prom-client",
  ],
};

export default nextConfig;
