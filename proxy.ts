import { NextResponse, type NextRequest } from "next/server";

/** Tells server components which dashboard URL was asked for (read in lib/session/current.ts). */
const DASHBOARD_PATH_HEADER = "x-adloom-path";

/**
 * Server components cannot see the request URL; the sign-in redirect needs it to bring a
 * signed-out visitor back to the page they opened. Only dashboard pages pass through here
 * (upload routes must not: a proxy truncates large bodies).
 */
export function proxy(request: NextRequest) {
  const headers = new Headers(request.headers);
  headers.set(DASHBOARD_PATH_HEADER, request.nextUrl.pathname + request.nextUrl.search);
  return NextResponse.next({ request: { headers } });
}

export const config = { matcher: ["/dashboard", "/dashboard/:path*"] };
