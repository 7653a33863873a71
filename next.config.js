/** @type {import('next').NextConfig} */
const nextConfig = {
  // Tests and parallel work build into their own folder so two builds never share one.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  poweredByHeader: false,
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
    "sharp",
    "inngest",
    "nodemailer",
  ],
};

export default nextConfig;
