import { z } from "zod";

export const AdAccountConnectionSchema = z.object({
  id: z.string(),
  platform: z.enum(["platform_a", "platform_b"]),
  externalAccountId: z.string().describe("The platform's own account id: act_<digits> on platform_a, the advertiser id on platform_b"),
  mode: z.enum(["sandbox", "live"]),
  sandbox: z.boolean().describe("A sandbox account: simulated delivery on the sandbox platform, no real money"),
  status: z
    .enum(["active", "needs_reconnect", "disconnected"])
    .describe("needs_reconnect: the platform refused the token; calls answer not_connected until it is connected again"),
  statusReason: z.string().nullable(),
  reconnectHint: z.string().nullable().describe("How to reconnect (dashboard page or operator command), when not active"),
  isDefault: z.boolean().describe("The platform's default account: uploads and the ads tools use it"),
  name: z.string(),
  currency: z.string().nullable(),
  timeZone: z.string().nullable(),
  pageId: z.string().nullable(),
  identityId: z.string().nullable(),
  connectedAt: z.string().nullable(),
  createdAt: z.string(),
});
