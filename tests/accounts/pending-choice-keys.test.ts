/**
 * A Connect's held account choice (the token kept sealed for 15 minutes while the marketer picks) across a
 * CREDENTIALS_KEY rotation: `admin credentials reseal` moves it to the new key with everything else, and one
 * the current keys cannot open answers `conflict` ("Connect again"), not a 500. In-process, on a fresh database.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { useFreshDatabase } from "../helpers/in-process-db";

const OLD = "old-credentials-key-0123456789abcdef0123";
const NEW = "new-credentials-key-0123456789abcdef0123";
const GONE = "gone-credentials-key-0123456789abcdef012";
const who = { workspaceId: "ws_pending_keys", userId: "usr_pending_keys" };

/** The services again over the same database, with these keys (as a restart with new configuration would). */
async function restartWithKeys(current: string, previous: string[] = []) {
  process.env.CREDENTIALS_KEY = current;
  if (previous.length) process.env.CREDENTIALS_KEY_PREVIOUS = previous.join(",");
  else delete process.env.CREDENTIALS_KEY_PREVIOUS;
  const { createServices, disposeServices } = await import("@/lib/services");
  await disposeServices();
  createServices();
}

beforeAll(async () => {
  process.env.CREDENTIALS_KEY = OLD;
  await useFreshDatabase("pending_choice_keys");
});
afterAll(async () => {
  delete process.env.CREDENTIALS_KEY;
  delete process.env.CREDENTIALS_KEY_PREVIOUS;
  await (await import("@/lib/services")).disposeServices();
});

/** A held choice as connectFromAuthorization stores it, its token sealed by `key`. */
async function heldChoice(id: string, key: string) {
  const { keyRingFrom } = await import("@/lib/credentials/keys");
  const { seal } = await import("@/lib/credentials/sealed");
  const { getDb } = await import("@/lib/db/client");
  await getDb().adAccountPendingGrant.create({
    data: {
      id,
      ...who,
      platform: "platform_a",
      credentialsCiphertext: seal(`token-of-${id}`, `ad_account_pending_grant:${id}`, keyRingFrom(key)),
      accounts: [
        { id: "act_1", name: "One" },
        { id: "act_2", name: "Two" },
      ],
      pages: [],
      expiresAt: new Date(Date.now() + 10 * 60_000),
    },
  });
}

it("reseal moves a held choice to the new key; one no key opens answers conflict when picked", async () => {
  await heldChoice("adgrant_old_key", OLD);
  await heldChoice("adgrant_gone_key", GONE);

  await restartWithKeys(NEW, [OLD]);
  const { runAdminCommand } = await import("@/lib/admin/commands");
  const result = (await runAdminCommand(["credentials", "reseal"])) as Record<string, any>;
  expect(result.pendingChoices).toEqual({ checked: 2, resealed: 1, unreadable: ["adgrant_gone_key"] });
  expect(result.ok).toBe(false);
  expect(result.unreadable).toContain("adgrant_gone_key");

  // The previous key dropped: the resealed choice still opens with the new key alone.
  await restartWithKeys(NEW);
  const { getDb } = await import("@/lib/db/client");
  const { keyRingFrom } = await import("@/lib/credentials/keys");
  const { open } = await import("@/lib/credentials/sealed");
  const resealed = await getDb().adAccountPendingGrant.findUniqueOrThrow({ where: { id: "adgrant_old_key" } });
  expect(open(resealed.credentialsCiphertext, "ad_account_pending_grant:adgrant_old_key", keyRingFrom(NEW)).plaintext).toBe("token-of-adgrant_old_key");

  const { completePendingGrant } = await import("@/lib/ad-accounts/pending-grants");
  const refused = await completePendingGrant(who, "adgrant_gone_key", { accountIds: ["act_1"] }).catch((err: unknown) => err);
  expect(refused).toMatchObject({ code: "conflict", message: expect.stringMatching(/can no longer be read.*Connect again/) });
  // Nothing is left held: a second pick finds no choice.
  expect(await completePendingGrant(who, "adgrant_gone_key", { accountIds: ["act_1"] }).catch((err: unknown) => err)).toMatchObject({ code: "not_found" });
});
