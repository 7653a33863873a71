import { NextResponse, type NextRequest } from "next/server";
import { pageContentSecurityPolicy } from "@/lib/observability/security-headers";

/**
 * Pages only: a Content-Security-Policy with a nonce made for this response. Next.js reads the
 * nonce from the request's CSP header and puts it on the scripts it renders (every page renders
 * per request: see app/layout.tsx). API routes are not matched: a proxy in front of the upload
 * route would cut request bodies at 10 MB, and API answers get their headers from next.config.js.
 */
export function proxy(request: NextRequest): NextResponse {
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
  const csp = pageContentSecurityPolicy(nonce, process.env.NODE_ENV === "development");
  const headers = new Headers(request.headers);
  headers.set("x-nonce", nonce);
  headers.set("Content-Security-Policy", csp);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set("Content-Security-Policy", csp);
  return response;
}

export const config = {
  matcher: [
    {
      source: "/((?!api/|_next/static|_next/image|icon.svg|docs/openapi.json).*)",
      missing: [
        { type: "header", key: "next-router-prefetch" },
        { type: "header", key: "purpose", value: "prefetch" },
      ],
    },
  ],
};
