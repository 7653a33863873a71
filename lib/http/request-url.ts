/**
 * The request's URL. A route's request carries it parsed already as `nextUrl` (Next's NextRequest in an
 * app route, lib/http/pages-api.ts's request in a Pages API route); parsing it again cost each API request a
 * few microseconds per use. A plain Request (tests calling handlers in-process) is parsed here.
 */
export function urlOf(request: Request): Pick<URL, "pathname" | "search" | "searchParams"> {
  return (request as { nextUrl?: URL }).nextUrl ?? new URL(request.url);
}
