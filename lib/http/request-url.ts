/**
 * The request's URL. A route handler's request is Next's NextRequest, which parsed it already
 * (`nextUrl`); parsing it again cost each API request a few microseconds per use. A plain Request
 * (tests calling handlers in-process) is parsed here.
 */
export function urlOf(request: Request): Pick<URL, "pathname" | "search" | "searchParams"> {
  return (request as { nextUrl?: URL }).nextUrl ?? new URL(request.url);
}
