import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { classifyAddress } from "@/lib/webhooks/ip-ranges";
import { sendSignedRequest, isSuccess } from "@/lib/webhooks/send-request";
import { signatureHeader } from "@/lib/webhooks/sign";
import { resolveDeliverableUrl, type Resolver } from "@/lib/webhooks/url-policy";
import { verifyWebhook, WebhookVerificationError } from "@adloom/sdk";
import { REFUSED_ADDRESSES } from "./helpers/addresses";
import { startReceiver, type Receiver } from "./helpers/receiver";

describe("address classes", () => {
  it.each(REFUSED_ADDRESSES)("refuses %s (%s)", (address, reason) => {
    const verdict = classifyAddress(address);
    expect(verdict.allowed).toBe(false);
    if (!verdict.allowed) expect(verdict.reason.toLowerCase()).toContain(reason.toLowerCase());
  });

  it.each(["1.1.1.1", "8.8.8.8", "93.184.216.34", "2606:4700:4700::1111", "2a00:1450:4001:81b::200e", "64:ff9b::808:808", "::ffff:8.8.8.8"])(
    "allows the public address %s",
    (address) => expect(classifyAddress(address)).toEqual({ allowed: true }),
  );
});

describe("URL policy", () => {
  const resolverFor =
    (answers: Record<string, string[]>): Resolver =>
    async (host) =>
      (answers[host] ?? []).map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));

  it("refuses a host when any of its addresses is not public", async () => {
    const policy = { allowPrivate: false, resolver: resolverFor({ "mixed.example": ["1.1.1.1", "10.0.0.5"] }) };
    await expect(resolveDeliverableUrl("https://mixed.example/hook", policy)).rejects.toThrow(/10\.0\.0\.5.*private/);
  });

  it("refuses plain http, credentials and unresolvable hosts", async () => {
    const policy = { allowPrivate: false, resolver: resolverFor({ "public.example": ["1.1.1.1"] }) };
    await expect(resolveDeliverableUrl("http://public.example/hook", policy)).rejects.toThrow(/https/);
    await expect(resolveDeliverableUrl("https://user:pw@public.example/hook", policy)).rejects.toThrow(/user name/);
    await expect(resolveDeliverableUrl("https://nowhere.example/hook", policy)).rejects.toThrow(/does not resolve/);
    await expect(resolveDeliverableUrl("https://public.example/hook", policy)).resolves.toMatchObject({ address: "1.1.1.1", family: 4 });
  });

  it("in development allows http to loopback and private addresses, but still not to link-local or public http", async () => {
    const policy = { allowPrivate: true, resolver: resolverFor({ "meta.example": ["169.254.169.254"], "public.example": ["1.1.1.1"] }) };
    await expect(resolveDeliverableUrl("http://127.0.0.1:9/x", policy)).resolves.toMatchObject({ address: "127.0.0.1" });
    await expect(resolveDeliverableUrl("http://[fd12::1]:9/x", policy)).resolves.toMatchObject({ address: "fd12::1" });
    await expect(resolveDeliverableUrl("http://meta.example/x", policy)).rejects.toThrow(/link-local/);
    await expect(resolveDeliverableUrl("http://public.example/x", policy)).rejects.toThrow(/Plain http/);
  });
});

describe("sending a signed request", () => {
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(() => receiver.close());

  const request = (url: string) => ({
    url,
    secret: "whsec_test",
    body: '{"id":"evt_1","type":"test","createdAt":"2026-01-01T00:00:00.000Z","data":{}}',
    eventId: "evt_1",
    eventType: "test",
    deliveryId: "whd_1",
  });

  it.each(REFUSED_ADDRESSES)("re-checks DNS at delivery: a host answering %s (%s) is not contacted", async (address) => {
    const before = receiver.requests.length;
    const resolver: Resolver = async () => [{ address: address.replace(/%.*/, ""), family: address.includes(":") ? 6 : 4 }];
    const sent = await sendSignedRequest(request(`https://rebound.example:${receiver.port}/hooks`), { allowPrivate: false, resolver });
    expect(sent.remoteAddress).toBeNull();
    expect(sent.outcome.status).toBeNull();
    expect(sent.outcome.error).toMatch(/^Not sent: .*not a public address/);
    expect(receiver.requests.length).toBe(before);
  });

  it("connects to exactly the address it checked (the resolver's answer), keeping the URL's host name", async () => {
    let lookups = 0;
    const resolver: Resolver = async (host) => {
      lookups++;
      expect(host).toBe("hooks.customer.test");
      return [{ address: "127.0.0.1", family: 4 }];
    };
    const sent = await sendSignedRequest(request(`http://hooks.customer.test:${receiver.port}/hooks`), { allowPrivate: true, resolver });
    expect(lookups).toBe(1);
    expect(sent.remoteAddress).toBe("127.0.0.1");
    expect(isSuccess(sent.outcome)).toBe(true);
    const last = receiver.requests.at(-1)!;
    expect(last.headers.host).toBe(`hooks.customer.test:${receiver.port}`);
    expect((await verifyWebhook({ body: last.body, header: last.headers["service-signature"], secret: "whsec_test" })).id).toBe("evt_1");
  });

  it("does not follow redirects, times out after the limit, and caps the response excerpt", async () => {
    const resolver: Resolver = async () => [{ address: "127.0.0.1", family: 4 }];
    const policy = { allowPrivate: true, resolver };
    receiver.respondWith(() => ({ status: 302, body: "moved" }));
    const redirected = await sendSignedRequest(request(receiver.url), policy);
    expect(redirected.outcome.status).toBe(302);
    expect(isSuccess(redirected.outcome)).toBe(false);

    receiver.respondWith(() => ({ status: 200, body: "x".repeat(100_000) }));
    const big = await sendSignedRequest(request(receiver.url), policy);
    expect(big.outcome.responseExcerpt!.length).toBe(4096);

    receiver.respondWith(() => ({ status: 200, delayMs: 1500 }));
    const slow = await sendSignedRequest(request(receiver.url), policy, { timeoutMs: 500 });
    expect(slow.outcome.status).toBeNull();
    expect(slow.outcome.error).toMatch(/No response within/);
    receiver.respondWith(() => ({ status: 200 }));
  });
});

describe("verifyWebhook (the client library's, against the server's signer)", () => {
  const secret = "whsec_abc";
  const body = '{"id":"evt_9","type":"test","createdAt":"2026-01-01T00:00:00.000Z","data":{"a":1}}';
  const now = 1_800_000_000;

  it("accepts a valid signature and returns the event", async () => {
    const header = signatureHeader(secret, body, now);
    expect(await verifyWebhook({ body, header, secret, now })).toEqual(JSON.parse(body));
    expect((await verifyWebhook({ body: Buffer.from(body), header, secret, now: now + 299 })).id).toBe("evt_9");
    expect((await verifyWebhook({ body: new TextEncoder().encode(body).buffer, header, secret, now })).id).toBe("evt_9");
  });

  const failure = async (verifying: Promise<unknown>) => {
    try {
      await verifying;
    } catch (err) {
      expect(err).toBeInstanceOf(WebhookVerificationError);
      return (err as WebhookVerificationError).code;
    }
    throw new Error("expected verification to fail");
  };

  it("rejects a changed body, a wrong secret, stale and future timestamps, and malformed headers", async () => {
    const header = signatureHeader(secret, body, now);
    expect(await failure(verifyWebhook({ body: body.replace('"a":1', '"a": 1'), header, secret, now }))).toBe("bad_signature");
    expect(await failure(verifyWebhook({ body, header, secret: "whsec_other", now }))).toBe("bad_signature");
    expect(await failure(verifyWebhook({ body, header, secret, now: now + 301 }))).toBe("stale_timestamp");
    expect(await failure(verifyWebhook({ body, header, secret, now: now - 301 }))).toBe("stale_timestamp");
    expect(await failure(verifyWebhook({ body, header: null, secret, now }))).toBe("malformed_header");
    expect(await failure(verifyWebhook({ body, header: "v1=abc", secret, now }))).toBe("malformed_header");
    expect(await failure(verifyWebhook({ body, header: `t=${now}`, secret, now }))).toBe("malformed_header");
    expect(await failure(verifyWebhook({ body, header: `t=soon,v1=${"0".repeat(64)}`, secret, now }))).toBe("malformed_header");
    expect(await failure(verifyWebhook({ body: "not json", header: signatureHeader(secret, "not json", now), secret, now }))).toBe("malformed_body");
    expect((await verifyWebhook({ body, header, secret, now: now + 1000, toleranceSeconds: 2000 })).id).toBe("evt_9");
  });
});
