import { PlatformError } from "../../types";
import { type CommentGoneAction, commentGoneRefusal } from "../../comment-gone";
import type { AdComment, CommentsQuery, LeadForm, LeadsQuery, LeadSubmission } from "../../ads-types";
import { graphDelete, graphGet, graphList, graphPost, isMissingObject } from "./graph";
import type { MetaAccount } from "./ads";
import { isoTime } from "./naming";

/**
 * What people do with the ads on the Page: comments on the ads' posts (the creative's
 * effective_object_story_id) and lead-form submissions. Both belong to the Page, so these calls use
 * the Page's access token (GET /<page_id>?fields=access_token with the user token: needs
 * pages_read_engagement / pages_manage_engagement and leads_retrieval).
 */

const pageTokens = new Map<string, { token: string; until: number }>();

function requirePage(a: MetaAccount): string {
  if (!a.pageId)
    throw new PlatformError("invalid_input", "platform_a comments and leads belong to the account's Page: reconnect the account and pick the Page", {
      retryable: false,
    });
  return a.pageId;
}

/** The Page's token for this user token, kept for 10 minutes. */
async function pageToken(a: MetaAccount): Promise<string> {
  const pageId = requirePage(a);
  const key = `${pageId}:${a.token}`;
  const kept = pageTokens.get(key);
  if (kept && kept.until > Date.now()) return kept.token;
  const page = await graphGet(pageId, a.token, { fields: "access_token" });
  if (typeof page.access_token !== "string")
    throw new PlatformError("not_connected", `platform_a gave no access to Page ${pageId}: the token lacks the Page's permissions`, {
      retryable: false,
      authRefused: true,
    });
  pageTokens.set(key, { token: page.access_token, until: Date.now() + 10 * 60_000 });
  return page.access_token;
}

const COMMENT_FIELDS = "id,from{id,name},message,created_time,is_hidden,parent{id}";

/** A comment id is `<post id>_<comment id>`; a Page post's id is `<page id>_<post id>`. */
const postPartOf = (commentId: string) => commentId.split("_")[0] ?? "";

function toComment(c: any, adExternalId: string, pageId: string): AdComment {
  return {
    externalId: String(c.id),
    adExternalId,
    authorName: String(c.from?.name ?? ""),
    message: String(c.message ?? ""),
    createdAt: isoTime(c.created_time) ?? new Date(0).toISOString(),
    hidden: c.is_hidden === true,
    parentExternalId: c.parent?.id ? String(c.parent.id) : null,
    byPage: String(c.from?.id ?? "") === pageId,
  };
}

/** The account's ads and the Page posts they run as. */
async function adPosts(a: MetaAccount, adIds?: string[]): Promise<Map<string, string>> {
  const ads = await graphList(`${a.accountId}/ads`, a.token, {
    fields: "id,creative{effective_object_story_id}",
    ...(adIds?.length ? { filtering: [{ field: "id", operator: "IN", value: adIds }] } : {}),
  });
  const posts = new Map<string, string>();
  for (const ad of ads) {
    const story = ad.creative?.effective_object_story_id;
    if (story) posts.set(String(story), String(ad.id));
  }
  return posts;
}

const byTimeThenId = (x: { createdAt: string; externalId: string }, y: { createdAt: string; externalId: string }) =>
  x.createdAt < y.createdAt ? -1 : x.createdAt > y.createdAt ? 1 : x.externalId < y.externalId ? -1 : x.externalId > y.externalId ? 1 : 0;

function afterPosition<T extends { createdAt: string; externalId: string }>(items: T[], after?: string, afterId?: string): T[] {
  if (!after) return items;
  const at = new Date(after).toISOString();
  return items.filter((i) => i.createdAt > at || (afterId !== undefined && i.createdAt === at && i.externalId > afterId));
}

/** Every comment (and reply: filter=stream) on the ads' posts, oldest first after the position. */
export async function listComments(a: MetaAccount, query: CommentsQuery): Promise<AdComment[]> {
  const pageId = requirePage(a);
  const token = await pageToken(a);
  const posts = await adPosts(a, query.adExternalIds);
  const all: AdComment[] = [];
  for (const [post, adId] of posts) {
    const comments = await graphList(`${post}/comments`, token, {
      fields: COMMENT_FIELDS,
      filter: "stream",
      order: "chronological",
      ...(query.after ? { since: Math.floor(new Date(query.after).getTime() / 1000) - 1 } : {}),
    });
    all.push(...comments.map((c) => toComment(c, adId, pageId)));
  }
  return afterPosition(all.sort(byTimeThenId), query.after, query.afterExternalId).slice(0, query.limit);
}

async function readComment(a: MetaAccount, token: string, commentId: string): Promise<AdComment> {
  const c = await graphGet(commentId, token, { fields: COMMENT_FIELDS });
  const posts = await adPosts(a);
  const adId = [...posts].find(([post]) => post.split("_")[1] === postPartOf(commentId))?.[1] ?? "";
  return toComment(c, adId, requirePage(a));
}

/** For a call on the comment: Graph's "no such object" (code 100, subcode 33) means the comment is gone, refused saying so. */
function refusedIfGone(commentId: string, action: CommentGoneAction) {
  return (err: unknown): never => {
    throw isMissingObject(err) ? commentGoneRefusal("platform_a", commentId, "on the Page", action) : err;
  };
}

/**
 * Hides or shows a comment. One that is gone (deleted by its author or on the Page: Graph's code 100, subcode 33)
 * cannot be either: a terminal refusal that says so, and that deleting it here is what clears it from the inbox.
 */
export async function setCommentHidden(a: MetaAccount, commentId: string, hidden: boolean): Promise<AdComment> {
  const token = await pageToken(a);
  const goneRefusal = refusedIfGone(commentId, hidden ? "hidden" : "shown");
  await graphPost(commentId, token, { is_hidden: hidden }).catch(goneRefusal);
  return await readComment(a, token, commentId).catch(goneRefusal);
}

/**
 * Replies as the Page; a reply the Page already made with the same text answers that one (a repeated call). A comment
 * that is gone (code 100, subcode 33) is refused saying so, as a hide is, before anything is posted.
 */
export async function replyToComment(a: MetaAccount, commentId: string, message: string): Promise<AdComment> {
  const pageId = requirePage(a);
  const token = await pageToken(a);
  const goneRefusal = refusedIfGone(commentId, "replied to");
  const parent = await readComment(a, token, commentId).catch(goneRefusal);
  const replies = await graphList(`${commentId}/comments`, token, { fields: COMMENT_FIELDS }).catch(goneRefusal);
  const earlier = replies.find((r) => String(r.from?.id) === pageId && r.message === message);
  const id = earlier ? String(earlier.id) : String((await graphPost(`${commentId}/comments`, token, { message }).catch(goneRefusal)).id);
  const reply = await graphGet(id, token, { fields: COMMENT_FIELDS });
  return toComment({ ...reply, parent: reply.parent ?? { id: commentId } }, parent.adExternalId, pageId);
}

/**
 * Deletes a comment (Graph deletes its replies with it). One already gone (deleted by its author, on the Page, or
 * by an earlier call whose answer was lost: code 100, subcode 33) is what a delete asks for: done, not a refusal
 * that would fail the moderator's delete every time it is tried.
 */
export async function deleteComment(a: MetaAccount, commentId: string): Promise<void> {
  try {
    await graphDelete(commentId, await pageToken(a));
  } catch (err) {
    if (!isMissingObject(err)) throw err;
  }
}

/** The Page's lead forms: GET /<page_id>/leadgen_forms. */
export async function listLeadForms(a: MetaAccount): Promise<LeadForm[]> {
  const token = await pageToken(a);
  const forms = await graphList(`${requirePage(a)}/leadgen_forms`, token, { fields: "id,name,status,questions" });
  return forms.map((f) => ({
    externalId: String(f.id),
    name: String(f.name ?? ""),
    questions: (f.questions ?? []).map((q: any) => String(q.key ?? q.type ?? "").toLowerCase()).filter(Boolean),
    status: f.status === "ACTIVE" ? "active" : "archived",
  }));
}

/** Graph lists a form's leads newest first: one read takes at most this many (and one more) to find the oldest after a position. */
export const LEADS_WINDOW = 1_000;

const leadSecond = (l: any) => Math.floor(new Date(isoTime(l.created_time) ?? 0).getTime() / 1000);

/**
 * The oldest window of a form's submissions created after `since` (Unix seconds, exclusive) holding one that
 * `isNew` takes, read whole. Graph lists a form's leads newest first, so the first LEADS_WINDOW of a longer list
 * are its newest: cut there, the oldest would be skipped for good once the cursor passed the ones read. A window
 * holding more is narrowed from above with time_created LESS_THAN (halved, or down to its oldest second read);
 * a single second is read whole however many it holds.
 */
async function oldestLeads(formId: string, token: string, since: number, isNew: (lead: any) => boolean): Promise<any[]> {
  const read = (after: number, before: number | null, max: number) =>
    graphList(
      `${formId}/leads`,
      token,
      {
        fields: "id,created_time,ad_id,form_id,field_data",
        filtering: [
          { field: "time_created", operator: "GREATER_THAN", value: after },
          ...(before !== null ? [{ field: "time_created", operator: "LESS_THAN", value: before }] : []),
        ],
      },
      max,
    );
  // Nothing new at or before `low`; more than LEADS_WINDOW wait between `low` and `full` (null: not known).
  let low = since;
  let full: number | null = null;
  for (;;) {
    const high: number | null = full === null ? null : full - low <= 2 ? full : low + Math.ceil((full - low) / 2);
    const oneSecond = high !== null && high - low <= 2;
    const rows = await read(low, high, oneSecond ? Number.POSITIVE_INFINITY : LEADS_WINDOW + 1);
    if (!oneSecond && rows.length > LEADS_WINDOW) {
      full = Math.min(...rows.map(leadSecond)) + 1; // the unread ones are at or before the oldest read
      continue;
    }
    // The whole window (low, high): the oldest new ones if it holds any, else they come after it.
    if (high === null || rows.some(isNew)) return rows;
    low = high - 1;
    if (high === full) full = null;
  }
}

/**
 * A form's submissions after the position, oldest first by (createdAt, id): GET /<form_id>/leads filtered on
 * time_created (seconds) from the position's second (oldestLeads), ordered and cut here.
 */
export async function listLeadSubmissions(a: MetaAccount, query: LeadsQuery): Promise<LeadSubmission[]> {
  const token = await pageToken(a);
  const since = query.after ? Math.floor(new Date(query.after).getTime() / 1000) - 1 : 0;
  const toSubmission = (l: any): LeadSubmission => ({
    externalId: String(l.id),
    formExternalId: String(l.form_id ?? query.formExternalId),
    adExternalId: l.ad_id ? String(l.ad_id) : null,
    createdAt: isoTime(l.created_time) ?? new Date(0).toISOString(),
    fields: (l.field_data ?? []).map((f: any) => ({ name: String(f.name), values: (f.values ?? []).map(String) })),
  });
  const isNew = (l: any) => afterPosition([toSubmission(l)], query.after, query.afterId).length > 0;
  const submissions = (await oldestLeads(query.formExternalId, token, since, isNew)).map(toSubmission);
  return afterPosition(submissions.sort(byTimeThenId), query.after, query.afterId).slice(0, query.limit);
}
