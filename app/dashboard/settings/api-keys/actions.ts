"use server";
import { createApiKeyFor, revokeApiKeyFor } from "@/lib/dashboard/account";
import { runAsPrincipal } from "@/lib/dashboard/action-result";
import { revokeConnectedApp } from "@/lib/dashboard/account";

export async function createKeyAction(input: { name: string; scopes: string[] | null }) {
  return runAsPrincipal((p) => createApiKeyFor(p, { name: input.name, scopes: input.scopes ?? undefined }), "/dashboard/settings/api-keys");
}

export async function revokeKeyAction(keyId: string) {
  return runAsPrincipal((p) => revokeApiKeyFor(p, keyId), "/dashboard/settings/api-keys");
}

export async function revokeConnectedAppAction(grantId: string) {
  return runAsPrincipal((p) => revokeConnectedApp(p, grantId), "/dashboard/settings/api-keys");
}
