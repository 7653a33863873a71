import { NextResponse, type NextRequest } from "next/server";
import { pageContentSecurityPolicy } from "@/lib/observability/security-headers";

/** Tells server components which dashboard URL was asked for (read in lib/dashboard/current.ts). */
const DASHBOARD_PATH_HEADER = "x-adloom-path";

/**
 * Pages only:
 * - a Content-Security-Policy with a nonce made for this response. Next.js reads the nonce from the
 *   request's CSP header and puts it on the scripts it renders (every page renders per request: see
 *   app/layout.tsx);
 * - on dashboard pages, the URL that was asked for: server components cannot see it, and the sign-in
 *   redirect brings a signed-out visitor back to it.
 * API routes are not matched: a proxy in front of the upload route would cut request bodies at 10 MB,
 * and API answers get their headers from next.config.js.
 */
export function proxy(request: NextRequest): NextResponse {
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
  const { pathname, search } = request.nextUrl;
  // Only the Import page opens the policy for the Google Picker, and only when the operator set it up.
  const googlePicker = pathname === "/dashboard/import" && Boolean(process.env.GOOGLE_DRIVE_PICKER_API_KEY && process.env.GOOGLE_DRIVE_CLIENT_ID);
  const csp = pageContentSecurityPolicy(nonce, process.env.NODE_ENV === "development", { googlePicker });
  const headers = new Headers(request.headers);
  headers.set("x-nonce", nonce);
  headers.set("Content-Security-Policy", csp);
  if (pathname === "/dashboard" || pathname.startsWith("/dashboard/")) headers.set(DASHBOARD_PATH_HEADER, pathname + search);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set("Content-Security-Policy", csp);
  return response;
}

export const config = {
  matcher: [
    {
      source: "/((?!api/|_next/static|_next/image|icon.svg|favicon.ico|docs/openapi.json).*)",
      missing: [
        { type: "header", key: "next-router-prefetch" },
        { type: "header", key: "purpose", value: "prefetch" },
      ],
    },
  ],
};
