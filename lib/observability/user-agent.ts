import { requestContext } from "@/lib/observability/request-context";

const BROWSERS: [RegExp, string][] = [
  [/\bEdg(?:e|A|iOS)?\//, "Edge"],
  [/\bOPR\/|\bOpera\b/, "Opera"],
  [/\bSamsungBrowser\//, "Samsung Internet"],
  [/\bFirefox\/|\bFxiOS\//, "Firefox"],
  [/\b(?:Headless)?Chrome\/|\bCriOS\/|\bChromium\//, "Chrome"],
  [/\bSafari\//, "Safari"],
  [/\bcurl\//, "curl"],
];
const SYSTEMS: [RegExp, string][] = [
  [/\bAndroid\b/, "Android"],
  [/\biPhone\b|\biPad\b|\biPod\b/, "iOS"],
  [/\bCrOS\b/, "ChromeOS"],
  [/\bMac OS X\b|\bMacintosh\b/, "macOS"],
  [/\bWindows\b/, "Windows"],
  [/\bLinux\b/, "Linux"],
];

/**
 * A short, readable summary of a User-Agent header ("Firefox on Linux", "Safari on iOS"), enough for a person to
 * recognise their own device; null without a header. Not a detection of anything: the client writes the header.
 */
export function browserSummary(userAgent: string | undefined | null): string | null {
  const ua = userAgent?.trim();
  if (!ua) return null;
  const browser = BROWSERS.find(([pattern]) => pattern.test(ua))?.[1];
  const system = SYSTEMS.find(([pattern]) => pattern.test(ua))?.[1];
  if (browser && system) return `${browser} on ${system}`;
  if (browser || system) return (browser ?? system)!;
  // Something else (a script, an unknown client): its first product token, kept short.
  return ua.split(/[\s/]/)[0]!.slice(0, 40) || null;
}

/** The browser summary of the request being served; null outside a request or without the header. */
export function currentBrowserSummary(): string | null {
  return browserSummary(requestContext.getStore()?.incoming?.headers["user-agent"]);
}
