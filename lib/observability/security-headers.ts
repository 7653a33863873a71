/**
 * Security headers. Pages get a Content-Security-Policy with a fresh nonce per response (set by
 * proxy.ts; Next.js puts the nonce on its own scripts); every response, API included, gets the
 * static headers below (next.config.js `headers()`), and API answers a CSP that allows nothing,
 * since they are data, never documents to render.
 */
export function pageContentSecurityPolicy(nonce: string, dev: boolean, options: { googlePicker?: boolean } = {}): string {
  // The Import page with the Google Picker configured: Google's loader script (inserted by our own
  // nonce'd code, which 'strict-dynamic' allows), the Picker's frame, and its calls and pictures.
  const picker = options.googlePicker === true;
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}${picker ? " https://apis.google.com" : ""}`,
    ...(picker ? ["frame-src https://docs.google.com https://drive.google.com https://accounts.google.com https://content.googleapis.com"] : []),
    // React's style attributes (and Tailwind's) need inline styles; scripts are what the nonce guards.
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' blob: data:${picker ? " https://*.googleusercontent.com https://ssl.gstatic.com https://www.gstatic.com" : ""}`,
    "media-src 'self' blob:",
    "font-src 'self'",
    `connect-src 'self'${picker ? " https://apis.google.com https://www.googleapis.com https://content.googleapis.com" : ""}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

export const API_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'; sandbox";

export const STATIC_SECURITY_HEADERS: Record<string, string> = {
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "X-Frame-Options": "DENY",
  "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=()",
};
