import type { Principal } from "@/lib/auth/principal";
import { getDb } from "@/lib/db/client";

export const BRAND_VOICE_MAX = 2000;
export const NAMING_CONVENTION_MAX = 500;

export interface AiSettingsOut {
  brandVoice: string | null;
  namingConvention: string | null;
}

export async function settingsOf(workspaceId: string): Promise<AiSettingsOut> {
  const row = await getDb().aiSettings.findUnique({ where: { workspaceId } });
  return { brandVoice: row?.brandVoice ?? null, namingConvention: row?.namingConvention ?? null };
}

export async function getAiSettings(principal: Principal): Promise<{ settings: AiSettingsOut }> {
  return { settings: await settingsOf(principal.workspaceId) };
}

/** Sets the brand voice and naming convention (fields left out stay; null clears one). */
export async function updateAiSettings(principal: Principal, input: Partial<AiSettingsOut>): Promise<{ settings: AiSettingsOut }> {
  const fields = {
    ...(input.brandVoice !== undefined ? { brandVoice: input.brandVoice?.trim() || null } : {}),
    ...(input.namingConvention !== undefined ? { namingConvention: input.namingConvention?.trim() || null } : {}),
  };
  await getDb().aiSettings.upsert({ where: { workspaceId: principal.workspaceId }, create: { workspaceId: principal.workspaceId, ...fields }, update: fields });
  return getAiSettings(principal);
}
