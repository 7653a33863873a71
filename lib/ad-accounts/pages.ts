import { getDb } from "@/lib/db/client";
import { AppError, notFound } from "@/lib/errors";
import type { AdAccount } from "@/lib/generated/prisma/client";
import { listMetaPages, reconnectHint, type MetaPage } from "@/lib/platforms";
import { toConnection, type AdAccountConnection } from "./connections";

/**
 * The Page identity of a live platform_a (Meta) account: the Pages its token may publish as, and
 * choosing another one later (what the Connect choice and `adaccount connect --page` set first).
 */
async function metaAccount(workspaceId: string, id: string): Promise<AdAccount> {
  const row = await getDb().adAccount.findUnique({ where: { id } });
  // Another workspace's account is answered exactly like a missing one.
  if (!row || row.workspaceId !== workspaceId) throw notFound("Ad account");
  if (row.platform !== "platform_a" || row.mode !== "live") {
    throw new AppError(
      "invalid_input",
      row.mode === "sandbox"
        ? "Sandbox accounts publish as the sandbox's own Page; Pages are chosen for live platform_a (Meta) accounts"
        : "Pages are the identity of platform_a (Meta) accounts; a platform_b account publishes as its identity (identityId)",
    );
  }
  if (row.status !== "active") throw new AppError("not_connected", `Ad account ${row.externalAccountId} is ${row.status}. ${reconnectHint(row)}`);
  return row;
}

export async function listAdAccountPages(workspaceId: string, id: string): Promise<{ pages: (MetaPage & { current: boolean })[]; pageId: string | null }> {
  const row = await metaAccount(workspaceId, id);
  const pages = await listMetaPages(row);
  return { pages: pages.map((p) => ({ ...p, current: p.id === row.pageId })), pageId: row.pageId };
}

/** Makes one of the Pages the account's token may publish as the identity of its new ads (and whose comments and lead forms are read). */
export async function setAdAccountPage(workspaceId: string, id: string, pageId: string): Promise<{ adAccount: AdAccountConnection; page: MetaPage }> {
  const row = await metaAccount(workspaceId, id);
  const page = (await listMetaPages(row)).find((p) => p.id === pageId);
  if (!page) {
    throw new AppError(
      "invalid_input",
      `Page ${pageId} is not among the Pages the token of ${row.externalAccountId} may publish as; list_ad_account_pages shows them (grant the Page in Facebook Login, then Connect again)`,
    );
  }
  const saved = await getDb().adAccount.update({ where: { id: row.id }, data: { pageId: page.id } });
  return { adAccount: toConnection(saved), page };
}
