import type { AdAccountRef } from "../../types";
import { withAccountToken } from "../adapter";
import { graphList } from "./graph";

export interface MetaPage {
  id: string;
  name: string;
}

/**
 * The Facebook Pages the account's token may publish as (`GET /me/accounts`, every page of Graph's
 * cursor paging): the candidates for the ads' identity. A refused token moves the account to
 * needs_reconnect like any other call.
 */
export function listMetaPages(account: AdAccountRef): Promise<MetaPage[]> {
  return withAccountToken(account, async (token) => {
    const rows = await graphList("me/accounts", token, { fields: "id,name,tasks" }, 2000);
    return rows.map((p) => ({ id: String(p.id), name: String(p.name ?? p.id) })).filter((p) => /^\d+$/.test(p.id));
  });
}
