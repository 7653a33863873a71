import { z } from "zod";
import { AccountSchema, getAccount } from "@/lib/account/account";
import { defineOperation } from "@/lib/http/operation";

export const getMe = defineOperation({
  method: "GET",
  path: "/api/v1/me",
  operationId: "getMe",
  summary: "The account behind the API key",
  tag: "Account",
  capability: "account.read",
  allowSession: true,
  success: { status: 200, description: "The account", schema: z.object({ account: AccountSchema }) },
  handler: async ({ principal }) => ({ status: 200, body: { account: getAccount(principal) } }),
});
