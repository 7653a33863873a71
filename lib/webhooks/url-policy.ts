import dns from "node:dns";
import net, { type LookupFunction } from "node:net";
import { classifyAddress } from "./ip-ranges";

/** Answers a host name with its addresses; injectable so tests control DNS. */
export type Resolver = (hostname: string) => Promise<{ address: string; family: 4 | 6 }[]>;

export interface UrlPolicy {
  /** WEBHOOKS_ALLOW_PRIVATE_URLS=1: loopback and private addresses, and plain http:// to them, are allowed. */
  allowPrivate: boolean;
  resolver: Resolver;
}

/** The URL and the one address that was checked: the request must connect to exactly this address. */
export interface PinnedTarget {
  url: URL;
  address: string;
  family: 4 | 6;
}

export class WebhookUrlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WebhookUrlError";
  }
}

export const MAX_URL_LENGTH = 2048;
const DNS_TIMEOUT_MS = 5000;

/** The operating system's resolver (getaddrinfo), every address, in its order. */
export const systemResolver: Resolver = async (hostname) => {
  const answers = await dns.promises.lookup(hostname, { all: true, verbatim: true });
  return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

/** Syntax checks that need no DNS: absolute http(s) URL without credentials. */
export function parseWebhookUrl(raw: string, policy: Pick<UrlPolicy, "allowPrivate">): URL {
  if (raw.length > MAX_URL_LENGTH) throw new WebhookUrlError(`The URL is longer than ${MAX_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new WebhookUrlError("The URL is not a valid absolute URL");
  }
  const allowedProtocols = policy.allowPrivate ? ["https:", "http:"] : ["https:"];
  if (!allowedProtocols.includes(url.protocol)) {
    throw new WebhookUrlError(`The URL must start with https:// (got ${url.protocol}//)`);
  }
  if (url.username || url.password) throw new WebhookUrlError("The URL must not contain a user name or password");
  if (!url.hostname) throw new WebhookUrlError("The URL has no host");
  return url;
}

/**
 * Resolves the URL's host and checks every address it answers with; returns the address to
 * connect to. Called when the URL is saved and again before every delivery attempt.
 */
export async function resolveDeliverableUrl(raw: string, policy: UrlPolicy): Promise<PinnedTarget> {
  const url = parseWebhookUrl(raw, policy);
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  const literal = net.isIP(host);
  const addresses = literal ? [{ address: host, family: literal as 4 | 6 }] : await resolveWithTimeout(policy.resolver, host);
  checkAddresses(host, addresses, policy, Boolean(literal));
  const [first] = addresses;
  if (url.protocol === "http:" && classifyAddress(first!.address).allowed) {
    throw new WebhookUrlError("Plain http:// is allowed only for loopback and private addresses in development; use https://");
  }
  return { url, address: first!.address, family: first!.family };
}

/** Throws unless the host answered and every address it answered with is allowed by the policy. */
function checkAddresses(host: string, addresses: { address: string }[], policy: Pick<UrlPolicy, "allowPrivate">, literal: boolean): void {
  if (!addresses.length) throw new WebhookUrlError(`The host ${host} does not resolve to any address`);
  for (const { address } of addresses) {
    const verdict = classifyAddress(address);
    if (verdict.allowed) continue;
    if (verdict.localUse && policy.allowPrivate) continue;
    const where = literal ? `The address ${address}` : `The host ${host} resolves to ${address}, which`;
    throw new WebhookUrlError(`${where} is not a public address (${verdict.reason}); webhooks go to public HTTPS URLs only`);
  }
}

/**
 * A socket lookup that applies the policy to every connection a client opens: for clients (such as
 * an SDK's) that choose their own URLs and connections, so a host checked once cannot later be
 * pointed by DNS at an address the policy refuses. The error carries `code` ADDRESS_NOT_ALLOWED.
 */
export function guardedLookup(policy: UrlPolicy): LookupFunction {
  return (hostname, options, callback) => {
    const answer = callback as unknown as (err: Error | null, address?: string | { address: string; family: number }[], family?: number) => void;
    const host = hostname.replace(/^\[(.*)\]$/, "$1");
    const literal = net.isIP(host);
    const resolved = literal ? Promise.resolve([{ address: host, family: literal as 4 | 6 }]) : resolveWithTimeout(policy.resolver, host);
    resolved
      .then((addresses) => {
        checkAddresses(host, addresses, policy, Boolean(literal));
        const wanted = options.family === 4 || options.family === 6 ? addresses.filter((a) => a.family === options.family) : addresses;
        if (!wanted.length) throw new WebhookUrlError(`The host ${host} has no IPv${options.family} address`);
        return wanted;
      })
      // Two handlers, not a catch: the callback is called once, even should it throw.
      .then(
        (wanted) => (options.all ? answer(null, wanted) : answer(null, wanted[0]!.address, wanted[0]!.family)),
        (err: Error) => answer(Object.assign(err, { code: ADDRESS_NOT_ALLOWED })),
      );
  };
}

export const ADDRESS_NOT_ALLOWED = "ADDRESS_NOT_ALLOWED";

async function resolveWithTimeout(resolver: Resolver, host: string): Promise<{ address: string; family: 4 | 6 }[]> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      resolver(host),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new WebhookUrlError(`Resolving ${host} timed out`)), DNS_TIMEOUT_MS);
      }),
    ]);
  } catch (err) {
    if (err instanceof WebhookUrlError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    throw new WebhookUrlError(`The host ${host} could not be resolved${code ? ` (${code})` : ""}`);
  } finally {
    clearTimeout(timer);
  }
}
