import { z } from "zod";
import { AccountSchema, getAccount } from "@/lib/account/account";
import { defineTool } from "../types";

export const accountTools = [
  defineTool({
    name: "get_account",
    title: "Get account",
    description: "The account behind the API key: who it acts as, the workspace's plan, credits and trial end (same as GET /api/v1/me).",
    category: "account",
    capability: "account.read",
    readOnly: true,
    destructive: false,
    input: z.strictObject({}),
    output: z.object({ account: AccountSchema }),
    handler: async (principal) => ({ account: getAccount(principal) }),
    rest: {
      method: "GET",
      path: "/api/v1/me",
      operationId: "getMe",
      summary: "The account behind the API key",
      tag: "Account",
      status: 200,
      successDescription: "The account",
    },
  }),
];
