import { admin, type Tenant } from "../helpers/fixtures";
import { advance, pausedAd } from "../ads/helpers";
import { toolResult } from "../tools/helpers";

/** Posts comments under the ad on the sandbox platform (`admin sandbox comment`); they are published with the next simulated hour. */
export async function postComments(t: Tenant, adExternalId: string, messages: string[], author = "Test Person"): Promise<any[]> {
  const out = [];
  for (const message of messages) {
    out.push((await admin<any>(["sandbox", "comment", "--workspace", t.workspaceId, "--ad", adExternalId, "--message", message, "--author", author])).comment);
  }
  return out;
}

/** The comment's author deletes it on the sandbox platform (`admin sandbox uncomment`); answers it as the platform holds it. */
export async function authorDeletes(t: Tenant, commentExternalId: string): Promise<any> {
  return (await admin<any>(["sandbox", "uncomment", "--workspace", t.workspaceId, "--comment", commentExternalId])).comment;
}

/** `admin moderation pull` for the workspace: what the five-minute job runs. */
export async function pull(t: Tenant): Promise<any> {
  return admin<any>(["moderation", "pull", "--workspace", t.workspaceId]);
}

/** What the sandbox platform holds for the workspace (deleted comments and replies included). */
export async function platformComments(t: Tenant): Promise<any[]> {
  return (await admin<any>(["sandbox", "comments", "--workspace", t.workspaceId])).comments;
}

/**
 * A published (paused: no delivery, so no generated comments) ad with these comments pulled into the
 * inbox. Answers the ad and the inbox comments in the order of `messages`.
 */
export async function adWithComments(t: Tenant, messages: string[], options: { platform?: "platform_a" | "platform_b"; ad?: any } = {}) {
  const ad = options.ad ?? (await pausedAd(t.key, options.platform)).ad;
  const posted = await postComments(t, ad.externalId, messages);
  await advance(t.workspaceId, 1);
  const summary = await pull(t);
  const inbox = await allComments(t);
  const comments = posted.map((p) => inbox.find((c) => c.externalId === p.externalId));
  return { ad, posted, summary, comments };
}

/** Every inbox comment of the workspace, following the cursor. */
export async function allComments(t: Tenant, filters: Record<string, unknown> = {}): Promise<any[]> {
  const out = [];
  let cursor: string | null = null;
  do {
    const page: any = await toolResult(t.key, "list_ad_comments", { limit: 200, ...filters, ...(cursor ? { cursor } : {}) });
    out.push(...page.comments);
    cursor = page.nextCursor;
  } while (cursor);
  return out;
}
