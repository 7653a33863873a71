"use server";
import { z } from "zod";
import { createApiKeyFor, revokeApiKeyFor, revokeConnectedApp } from "@/lib/dashboard/account";
import { actionInput, runAsPrincipal } from "@/lib/dashboard/action-result";

const KeyInput = z.object({ name: z.string().max(1000), scopes: z.array(z.string().max(100)).max(50).nullable() });
const Id = z.string().min(1).max(100);

export async function createKeyAction(input: { name: string; scopes: string[] | null }) {
  return runAsPrincipal(async (p) => {
    const { name, scopes } = actionInput(KeyInput, input);
    return createApiKeyFor(p, { name, scopes: scopes ?? undefined });
  }, "/dashboard/settings/api-keys");
}

export async function revokeKeyAction(keyId: string) {
  return runAsPrincipal(async (p) => revokeApiKeyFor(p, actionInput(Id, keyId)), "/dashboard/settings/api-keys");
}

export async function revokeConnectedAppAction(grantId: string) {
  return runAsPrincipal(async (p) => revokeConnectedApp(p, actionInput(Id, grantId)), "/dashboard/settings/api-keys");
}
