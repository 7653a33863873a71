import { z } from "zod";
import { connectAdAccount, disconnectAdAccount, listConnections, setDefaultAdAccount } from "@/lib/ad-accounts/connections";
import { AdAccountConnectionSchema } from "@/lib/ad-accounts/schemas";
import { listAdAccountPages, setAdAccountPage } from "@/lib/ad-accounts/pages";
import { PlatformArg } from "@/lib/ads/ad-schemas";
import { defineTool } from "../types";
import { idArg } from "./shared";

const manage = { category: "accounts", capability: "adaccounts.manage", readOnly: false } as const;

export const adAccountTools = [
  defineTool({
    name: "list_connected_ad_accounts",
    title: "List connected ad accounts",
    description:
      "Every ad account connection of the workspace on both platforms: sandbox or live, status (active, needs_reconnect, disconnected, with how to reconnect), which one is each platform's default, currency and time zone. Reads no platform.",
    category: "accounts",
    capability: "adaccounts.read",
    readOnly: true,
    destructive: false,
    input: z.strictObject({}),
    output: z.object({ adAccounts: z.array(AdAccountConnectionSchema) }),
    handler: async (principal) => ({ adAccounts: await listConnections(principal.workspaceId) }),
  }),
  defineTool({
    ...manage,
    destructive: false,
    name: "connect_ad_account",
    title: "Connect ad account",
    description:
      "Connects (or reconnects) a live ad account with an access token: the account is read from the platform with the token first (name, currency, time zone); a refused token stores nothing and answers not_connected. The token is stored encrypted and never shown again. It becomes the platform's default when makeDefault is true or the current default is a sandbox account.",
    input: z.strictObject({
      platform: PlatformArg,
      externalAccountId: z.string().min(1).max(40).describe("platform_a: act_<digits>; platform_b: the advertiser id (digits)"),
      accessToken: z.string().min(1).max(4000).describe("The platform's access token for this account"),
      pageId: z.string().min(1).max(40).optional().describe("platform_a: the Facebook page ads are published as"),
      identityId: z.string().min(1).max(100).optional().describe("platform_b: the identity ads are published as"),
      makeDefault: z.boolean().optional().describe("Make it the platform's default account"),
    }),
    output: z.object({ adAccount: AdAccountConnectionSchema }),
    handler: async (principal, input) => ({
      adAccount: await connectAdAccount({ workspaceId: principal.workspaceId, ...input }),
    }),
  }),
  defineTool({
    ...manage,
    destructive: true,
    name: "disconnect_ad_account",
    title: "Disconnect ad account",
    description:
      "Disconnects a live ad account: its stored token is deleted and calls on it answer not_connected. If it was the default, the platform's next active account (live first, else the sandbox account) becomes the default. Sandbox accounts cannot be disconnected.",
    input: z.strictObject({ id: idArg("Ad account") }),
    output: z.object({ ok: z.literal(true), account: AdAccountConnectionSchema }),
    handler: (principal, input) => disconnectAdAccount(principal.workspaceId, input.id),
  }),
  defineTool({
    ...manage,
    destructive: false,
    name: "set_default_ad_account",
    title: "Set default ad account",
    description: "Makes an active ad account its platform's default: uploads push there and the ads tools work on it.",
    input: z.strictObject({ id: idArg("Ad account") }),
    output: z.object({ adAccount: AdAccountConnectionSchema }),
    handler: async (principal, input) => ({ adAccount: await setDefaultAdAccount(principal.workspaceId, input.id) }),
  }),
  defineTool({
    name: "list_ad_account_pages",
    title: "List ad account Pages",
    description:
      "The Facebook Pages a live platform_a (Meta) account's token may publish as: the candidates for its ads' identity, with the current one marked. Reads them from Meta (every page of the list).",
    category: "accounts",
    capability: "adaccounts.read",
    readOnly: true,
    destructive: false,
    input: z.strictObject({ id: idArg("Ad account") }),
    output: z.object({
      pageId: z.string().nullable().describe("The Page the account publishes as now"),
      pages: z.array(z.object({ id: z.string(), name: z.string(), current: z.boolean() })),
    }),
    handler: (principal, input) => listAdAccountPages(principal.workspaceId, input.id),
  }),
  defineTool({
    ...manage,
    destructive: false,
    name: "set_ad_account_page",
    title: "Set ad account Page",
    description:
      "Changes the Facebook Page a live platform_a (Meta) account publishes its new ads as (and whose comments and lead forms are read): one of list_ad_account_pages. Ads already built keep their Page.",
    input: z.strictObject({
      id: idArg("Ad account"),
      pageId: z
        .string()
        .regex(/^\d{1,30}$/, "a Page id (digits)")
        .describe("The Page's id"),
    }),
    output: z.object({ adAccount: AdAccountConnectionSchema, page: z.object({ id: z.string(), name: z.string() }) }),
    handler: (principal, input) => setAdAccountPage(principal.workspaceId, input.id, input.pageId),
  }),
];
