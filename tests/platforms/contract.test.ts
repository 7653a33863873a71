/**
 * The contract suite of "Live ad accounts": one set of cases, run in-process against every adapter
 * of a platform — the sandbox, Meta's adapter on the Graph API fake (tests/helpers/fake-meta.ts) and
 * TikTok's on the API for Business fake (tests/helpers/fake-tiktok.ts), each account a real AdAccount
 * row with sealed credentials. The rule cases are written from the platform's rules as its adapter
 * declares them (live/platform-a/rules.ts, live/platform-b/rules.ts), so a sandbox copy that drifts from them fails here.
 */
import { Readable } from "node:stream";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fakeMeta } from "../helpers/fake-meta";
import { fakeTikTok } from "../helpers/fake-tiktok";
import type { AdCreativeSpec, AdSetWrite, Targeting } from "@/lib/platforms/ads-types";
import { useFreshDatabase } from "../helpers/in-process-db";

const META_ACCOUNT = "act_555000111";
const META_PAGE = "2000002";
const TIKTOK_ADVERTISER = "7100000000000000555";
const TIKTOK_IDENTITY = "6990000000000000555";

/** Meta accounts in currencies whose Meta offset is not their minor unit (TWD, BHD, PKR), and one where it is (JPY). */
const META_CURRENCY_ACCOUNTS = { TWD: "act_555000201", BHD: "act_555000202", PKR: "act_555000203", JPY: "act_555000204" } as const;

const meta = await fakeMeta({
  version: "v24.0",
  accounts: {
    [META_ACCOUNT]: { name: "Contract Meta", currency: "USD", timezone_name: "America/New_York", account_status: 1 },
    ...Object.fromEntries(
      Object.entries(META_CURRENCY_ACCOUNTS).map(([currency, id]) => [
        id,
        { name: `Contract ${currency}`, currency, timezone_name: "Asia/Taipei", account_status: 1 },
      ]),
    ),
  },
  pages: { [META_PAGE]: { name: "Contract Page" } },
});
const tiktok = await fakeTikTok({
  advertisers: { [TIKTOK_ADVERTISER]: { name: "Contract TikTok", currency: "USD", timezone: "Etc/GMT", display_timezone: "UTC", status: "STATUS_ENABLE" } },
  identities: { [TIKTOK_ADVERTISER]: [TIKTOK_IDENTITY] },
});
process.env.PLATFORM_A_API_URL = meta.url;
process.env.PLATFORM_A_API_VERSION = "v24.0";
delete process.env.PLATFORM_A_APP_SECRET;
process.env.PLATFORM_B_API_URL = tiktok.url;
await useFreshDatabase("platform_contract");

const { createWorkspace } = await import("@/lib/workspaces/workspaces");
const { adapterFor, getAdAccount, PlatformError, sealAccountCredentials } = await import("@/lib/platforms");
const { platformRules } = await import("@/lib/platforms/ad-rules");
const { postSandboxComment } = await import("@/lib/platforms/sandbox/operator");
const { advanceSandbox } = await import("@/lib/platforms/sandbox/operator");
const { getStorage } = await import("@/lib/storage");
const { getDb } = await import("@/lib/db/client");
const { newId } = await import("@/lib/ids");

type Platform = "platform_a" | "platform_b";
type Adapter = ReturnType<typeof adapterFor>;
type Account = NonNullable<Awaited<ReturnType<typeof getAdAccount>>>;

interface Subject {
  name: string;
  platform: Platform;
  live: boolean;
  /** A fresh, active account on this adapter (a workspace of its own). */
  account(): Promise<Account>;
  /** Someone comments `count` times on the ad; the comments are listable afterwards. */
  comment(account: Account, adExternalId: string, count: number): Promise<void>;
  /** The platform stops accepting the account's token (live only). */
  revoke?(account: Account): void;
}

afterAll(async () => {
  await meta.close();
  await tiktok.close();
});

let tokens = 0;
async function liveAccount(platform: Platform, externalAccountId: string, grant: (token: string) => void, currency = "USD"): Promise<Account> {
  const { workspaceId } = await createWorkspace({ name: `Contract ${Math.random()}`, plan: "pro" });
  const id = newId("adacct");
  const token = `contract-token-${++tokens}`;
  grant(token);
  await getDb().adAccount.create({
    data: {
      id,
      workspaceId,
      platform,
      mode: "live",
      externalAccountId,
      status: "active",
      defaultFor: platform,
      currency,
      timeZone: platform === "platform_a" ? "America/New_York" : "UTC",
      pageId: platform === "platform_a" ? META_PAGE : null,
      identityId: platform === "platform_b" ? TIKTOK_IDENTITY : null,
      credentialsCiphertext: sealAccountCredentials(id, { accessToken: token }),
    },
  });
  return (await getDb().adAccount.findUniqueOrThrow({ where: { id } })) as Account;
}

const tokenOf = new Map<string, string>();
const subjects: Subject[] = [
  ...(["platform_a", "platform_b"] as const).map(
    (platform): Subject => ({
      name: `sandbox ${platform}`,
      platform,
      live: false,
      async account() {
        const { workspaceId } = await createWorkspace({ name: `Contract ${Math.random()}`, plan: "pro" });
        return (await getAdAccount(workspaceId, platform))!;
      },
      async comment(account, adExternalId, count) {
        for (let i = 0; i < count; i++) await postSandboxComment({ workspaceId: account.workspaceId, adExternalId, message: `comment ${i}` });
        await advanceSandbox(account.workspaceId, 1); // published once their hour is delivered
      },
    }),
  ),
  {
    name: "Meta (platform_a live) on the Graph API fake",
    platform: "platform_a",
    live: true,
    account: () =>
      liveAccount("platform_a", META_ACCOUNT, (token) => meta.grant(token, [META_ACCOUNT], [META_PAGE])).then((a) => {
        tokenOf.set(a.id, `contract-token-${tokens}`);
        return a;
      }),
    async comment(_account, adExternalId, count) {
      for (let i = 0; i < count; i++) meta.comment(adExternalId, `comment ${i}`, { at: new Date(Date.now() - (count - i) * 60_000) });
    },
    revoke: (account) => meta.revoke(tokenOf.get(account.id)!),
  },
  {
    name: "TikTok (platform_b live) on the API for Business fake",
    platform: "platform_b",
    live: true,
    account: () =>
      liveAccount("platform_b", TIKTOK_ADVERTISER, (token) => tiktok.grant(token, [TIKTOK_ADVERTISER])).then((a) => {
        tokenOf.set(a.id, `contract-token-${tokens}`);
        return a;
      }),
    async comment(_account, adExternalId, count) {
      const now = Math.floor(Date.now() / 1000);
      for (let i = 0; i < count; i++) tiktok.addComment(adExternalId, `comment ${i}`, { createTime: now - (count - i) * 60 });
    },
    revoke: (account) => tiktok.revoke(tokenOf.get(account.id)!),
  },
];

let png: Buffer;
beforeAll(async () => {
  png = await sharp({ create: { width: 600, height: 600, channels: 3, background: "#0a8" } })
    .png()
    .toBuffer();
});

async function refusal(promise: Promise<unknown>) {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err, "the adapter accepted what the platform refuses").toBeInstanceOf(PlatformError);
  return err as InstanceType<typeof PlatformError>;
}

const ref = (label: string) => `${label}-${Math.random().toString(36).slice(2)}`;

async function pushImage(api: Adapter, account: Account): Promise<string> {
  const key = `${account.workspaceId}/uploads/upl_${Math.random().toString(36).slice(2)}`;
  await getStorage().put(key, Readable.from([png]), { contentType: "image/png" });
  const { externalId } = await api.pushMedia({
    account,
    uploadId: newId("upl"),
    fileName: "contract.png",
    kind: "image",
    contentType: "image/png",
    sizeBytes: png.length,
    storageKey: key,
    jobRun: 1,
    attempt: 1,
  });
  return externalId;
}

const targeting = (platform: Platform): Targeting =>
  platform === "platform_a" ? { platform, countries: ["US"], ageMin: 18, ageMax: 65 } : { platform, locationIds: ["6252001"], ageGroups: [] };

function adSetWrite(platform: Platform, campaignExternalId: string, over: Partial<AdSetWrite> = {}): AdSetWrite {
  return {
    clientRef: ref("set"),
    campaignExternalId,
    name: "Contract set",
    status: "paused" as const,
    budget: { type: "daily" as const, amountMinor: platformRules(platform).minBudgetPerDayMinor.daily },
    startTime: null,
    endTime: null,
    targeting: targeting(platform),
    audienceId: null,
    ...over,
  };
}

function creative(platform: Platform, mediaId: string, over: Partial<AdCreativeSpec> = {}): AdCreativeSpec {
  return {
    mediaId,
    kind: "image" as const,
    headline: "Contract headline",
    primaryText: "Contract ad text",
    description: platformRules(platform).text.description ? "Contract description" : null,
    callToAction: "learn_more" as const,
    landingUrl: "https://example.com/contract",
    leadFormId: null,
    ...over,
  };
}

describe.each(subjects)("the ad platform contract: $name", (subject) => {
  const { platform } = subject;
  const rules = platformRules(platform);
  let account: Account;
  let api: Adapter;
  let campaignId: string;
  let adSetId: string;
  let mediaId: string;

  beforeAll(async () => {
    account = await subject.account();
    api = adapterFor(account);
  }, 60_000);

  it("getAccount answers currency, time zone, status and the platform's clock", async () => {
    const info = await api.getAccount(account);
    expect(info).toMatchObject({ externalAccountId: account.externalAccountId, currency: "USD", status: "active" });
    expect(info.timeZone).toMatch(/^[A-Za-z_]+(\/[A-Za-z_]+)?$/);
    expect(Number.isNaN(Date.parse(info.now))).toBe(false);
    expect(info.today).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it("pushMedia of an image answers the platform's id for it", async () => {
    mediaId = await pushImage(api, account);
    expect(mediaId).toMatch(/\S+/);
  });

  it("createCampaign, createAdSet and createAd with the same clientRef twice answer the same object", async () => {
    const campaignWrite = { clientRef: ref("campaign"), name: "Contract campaign", objective: "traffic" as const, status: "paused" as const };
    const campaign = await api.createCampaign(account, campaignWrite);
    expect(await api.createCampaign(account, campaignWrite)).toMatchObject({ externalId: campaign.externalId, status: "paused", name: "Contract campaign" });
    campaignId = campaign.externalId;

    const setWrite = adSetWrite(platform, campaignId);
    const adSet = await api.createAdSet(account, setWrite);
    expect((await api.createAdSet(account, setWrite)).externalId).toBe(adSet.externalId);
    expect(adSet.budget).toEqual(setWrite.budget);
    adSetId = adSet.externalId;

    const adWrite = { clientRef: ref("ad"), adSetExternalId: adSetId, name: "Contract ad", status: "paused" as const, creative: creative(platform, mediaId) };
    const ad = await api.createAd(account, adWrite);
    expect((await api.createAd(account, adWrite)).externalId).toBe(ad.externalId);
    expect(ad.creative).toMatchObject({ mediaId, headline: "Contract headline", callToAction: "learn_more" });
  });

  it(`refuses a daily budget below ${platform}'s minimum (${rules.minBudgetPerDayMinor.daily}) with invalid_input (the sets above are built at the minimum)`, async () => {
    const err = await refusal(
      api.createAdSet(account, adSetWrite(platform, campaignId, { budget: { type: "daily", amountMinor: rules.minBudgetPerDayMinor.daily - 1 } })),
    );
    expect(err.code).toBe("invalid_input");
    expect(err.message).toContain("budget");
  });

  it("refuses a lifetime budget without an end time, and one below the per-day minimum over its days", async () => {
    const start = new Date(Date.now() + 86_400_000);
    const end = new Date(start.getTime() + 3 * 86_400_000);
    const noEnd = await refusal(
      api.createAdSet(account, adSetWrite(platform, campaignId, { budget: { type: "lifetime", amountMinor: 1_000_000 }, startTime: start.toISOString() })),
    );
    expect(noEnd.code).toBe("invalid_input");
    const tooLow = await refusal(
      api.createAdSet(
        account,
        adSetWrite(platform, campaignId, {
          budget: { type: "lifetime", amountMinor: rules.minBudgetPerDayMinor.lifetime * 3 - 1 },
          startTime: start.toISOString(),
          endTime: end.toISOString(),
        }),
      ),
    );
    expect(tooLow.code).toBe("invalid_input");
  });

  it("refuses an ad set without targeting (a required field)", async () => {
    const empty: Targeting = platform === "platform_a" ? { platform, countries: [], ageMin: 18, ageMax: 65 } : { platform, locationIds: [], ageGroups: [] };
    expect((await refusal(api.createAdSet(account, adSetWrite(platform, campaignId, { targeting: empty })))).code).toBe("invalid_input");
  });

  for (const field of ["headline", "primaryText", "description"] as const) {
    const max = rules.text[field];
    it(max === 0 ? `refuses a ${field}: ${platform} ads have none` : `refuses a ${field} over ${max} characters; accepts ${max}`, async () => {
      const write = (text: string) => ({
        clientRef: ref("ad"),
        adSetExternalId: adSetId,
        // Distinct names: TikTok's adapter finds an earlier ad by name and media (its /ad/create/ has no request_id).
        name: `Contract ${field} ${text.length}`,
        status: "paused" as const,
        creative: creative(platform, mediaId, { [field]: text }),
      });
      const err = await refusal(api.createAd(account, write("é".repeat(max + 1))));
      expect(err.code).toBe("invalid_input");
      expect(err.message).toContain(field);
      if (max > 0) expect((await api.createAd(account, write("é".repeat(max)))).creative[field]).toBe("é".repeat(max));
    });
  }

  it(rules.primaryTextRequired ? "refuses an ad without primary text (required)" : "accepts an ad without primary text (optional)", async () => {
    const write = {
      clientRef: ref("ad"),
      adSetExternalId: adSetId,
      name: "No text",
      status: "paused" as const,
      creative: creative(platform, mediaId, { primaryText: null }),
    };
    if (rules.primaryTextRequired) expect((await refusal(api.createAd(account, write))).code).toBe("invalid_input");
    else expect((await api.createAd(account, write)).creative.primaryText ?? null).toBeNull();
  });

  it("refuses a call to action the platform does not offer", async () => {
    const offered = Object.keys(rules.callToActionNames);
    const missing = (["book_now", "get_offer", "apply_now"] as const).find((c) => !offered.includes(c))!;
    const write = {
      clientRef: ref("ad"),
      adSetExternalId: adSetId,
      name: "CTA",
      status: "paused" as const,
      creative: creative(platform, mediaId, { callToAction: missing }),
    };
    expect((await refusal(api.createAd(account, write))).code).toBe("invalid_input");
  });

  it("lists comments oldest first in pages: limit, then after the last one seen", async () => {
    const ad = await api.createAd(account, {
      clientRef: ref("ad"),
      adSetExternalId: adSetId,
      name: "Commented",
      status: "paused",
      creative: creative(platform, mediaId),
    });
    await subject.comment(account, ad.externalId, 3);
    const first = await api.listComments(account, { adExternalIds: [ad.externalId], limit: 2 });
    expect(first.map((c) => c.message)).toEqual(["comment 0", "comment 1"]);
    const last = first.at(-1)!;
    const second = await api.listComments(account, { adExternalIds: [ad.externalId], limit: 2, after: last.createdAt, afterExternalId: last.externalId });
    expect(second.map((c) => c.message)).toEqual(["comment 2"]);
  });

  it.runIf(subject.live)("a token the platform refuses answers not_connected and the account needs reconnecting", async () => {
    subject.revoke!(account);
    const err = await refusal(api.getAccount(account));
    expect(err.code).toBe("not_connected");
    expect((await getDb().adAccount.findUniqueOrThrow({ where: { id: account.id } })).status).toBe("needs_reconnect");
  });
});

describe("Meta budgets at the wire: our minor units as the account currency's offset units (Meta's Currency codes table)", () => {
  const campaignOn = async (account: Account) =>
    (await adapterFor(account).createCampaign(account, { clientRef: ref("campaign"), name: "Currency", objective: "traffic", status: "paused" })).externalId;
  const adSetPosts = () => meta.requests.filter((r) => r.method === "POST" && /\/act_\d+\/adsets$/.test(r.path)).length;
  const cases = [
    // currency, our minor units, what Meta is sent (NT$500.00 -> 500 whole dollars; BHD 5.000 -> 500 hundredths; PKR 500 -> 50000 paisa; ¥5000 -> 5000)
    ["TWD", 50_000, "500"],
    ["BHD", 5_000, "500"],
    ["PKR", 500, "50000"],
    ["JPY", 5_000, "5000"],
  ] as const;

  for (const [currency, minor, sent] of cases) {
    it(`${currency}: a daily budget of ${minor} minor units is sent as ${sent}, read back as ${minor}, and changed the same way`, async () => {
      const account = await liveAccount(
        "platform_a",
        META_CURRENCY_ACCOUNTS[currency],
        (token) => meta.grant(token, [META_CURRENCY_ACCOUNTS[currency]], [META_PAGE]),
        currency,
      );
      const api = adapterFor(account);
      expect((await api.getAccount(account)).currency).toBe(currency);
      const made = await api.createAdSet(account, adSetWrite("platform_a", await campaignOn(account), { budget: { type: "daily", amountMinor: minor } }));
      expect(meta.objects.get(made.externalId)).toMatchObject({ daily_budget: sent });
      expect(made.budget).toEqual({ type: "daily", amountMinor: minor });
      const changed = await api.updateAdSet(account, made.externalId, { clientRef: ref("budget"), budget: { type: "daily", amountMinor: minor * 3 } });
      expect(meta.objects.get(made.externalId)!.daily_budget).toBe(String(Number(sent) * 3));
      // The adapter's answer is Meta's ad set read back, converted to minor units again.
      expect(changed.budget).toEqual({ type: "daily", amountMinor: minor * 3 });
    });
  }

  it("TWD: a lifetime budget is converted too; an amount Meta cannot express (NT$123.45) is refused before anything is sent", async () => {
    const account = await liveAccount("platform_a", META_CURRENCY_ACCOUNTS.TWD, (token) => meta.grant(token, [META_CURRENCY_ACCOUNTS.TWD], [META_PAGE]), "TWD");
    const api = adapterFor(account);
    const campaign = await campaignOn(account);
    const start = new Date(Date.now() + 86_400_000);
    const lifetime = await api.createAdSet(
      account,
      adSetWrite("platform_a", campaign, {
        budget: { type: "lifetime", amountMinor: 300_000 },
        startTime: start.toISOString(),
        endTime: new Date(start.getTime() + 3 * 86_400_000).toISOString(),
      }),
    );
    expect(meta.objects.get(lifetime.externalId)).toMatchObject({ lifetime_budget: "3000" });
    const before = adSetPosts();
    const err = await refusal(api.createAdSet(account, adSetWrite("platform_a", campaign, { budget: { type: "daily", amountMinor: 12_345 } })));
    expect(err).toMatchObject({ code: "invalid_input", retryable: false });
    expect(err.message).toContain("123.45 TWD is not one (use 123.00 TWD or 124.00 TWD)");
    expect(adSetPosts()).toBe(before);
  });
});
