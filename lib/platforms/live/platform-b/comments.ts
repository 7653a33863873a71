import { z } from "zod";
import { getDb } from "@/lib/db/client";
import type { AdComment, CommentsQuery } from "../../ads-types";
import { PlatformError } from "../../types";
import { type CommentGoneAction, commentGoneRefusal } from "../../comment-gone";
import { getData, id, pageInfo, postJson, refusalCode } from "./client";
import { identityOf, listAllAdGroups, listAllAds, type TikTokAccount } from "./ads";

/**
 * Comments on the advertiser's ads: /comment/list/ per ad group (search_field ADGROUP_ID, oldest
 * first), /comment/status/update/ (HIDDEN, PUBLIC), /comment/post/ (a REPLY as the account's
 * identity), /comment/delete/ (the account's own comments only). Parameters as TikTok's OpenAPI files
 * in its official SDK name them (tiktok/tiktok-business-api-sdk, yml_files/comment_*.yml).
 */

const commentRow = z.object({
  comment_id: id,
  ad_id: id,
  adgroup_id: id.optional(),
  tiktok_item_id: id.nullish(),
  content: z.string(),
  comment_type: z.string().optional(),
  comment_status: z.string().optional(),
  reply_to_comment_id: id.nullish(),
  original_comment_id: id.nullish(),
  create_time: z.union([z.string(), z.number()]),
  user_name: z.string().nullish(),
  identity_id: id.nullish(),
});
type CommentRow = z.infer<typeof commentRow>;
const commentPage = z.object({ comments: z.array(commentRow).default([]), page_info: pageInfo.optional() });

/** create_time: Unix seconds (number or digits) or "YYYY-MM-DD HH:MM:SS" UTC. */
function createdAt(value: string | number): string {
  const s = String(value);
  if (/^\d+$/.test(s)) return new Date(Number(s) * 1000).toISOString();
  return new Date(`${s.replace(" ", "T")}${/Z|[+-]\d\d:?\d\d$/.test(s) ? "" : "Z"}`).toISOString();
}

function toComment(row: CommentRow, a: TikTokAccount): AdComment {
  const reply = row.comment_type === "REPLY";
  return {
    externalId: row.comment_id,
    adExternalId: row.ad_id,
    authorName: row.user_name ?? "",
    message: row.content,
    createdAt: createdAt(row.create_time),
    hidden: row.comment_status === "HIDDEN",
    parentExternalId: reply ? (row.reply_to_comment_id ?? row.original_comment_id ?? null) : null,
    // Replies the account posts carry its identity and no TikTok user.
    byPage: reply && !!a.identityId && row.identity_id === a.identityId && !row.user_name,
  };
}

const day = (iso: string) => iso.slice(0, 10);

const timeOf = (row: CommentRow) => new Date(createdAt(row.create_time)).getTime();

/** Rows per page of /comment/list/ (its largest page). */
const PAGE_SIZE = 100;

/**
 * The most pages of one ad group's comments one read asks for from where it starts (100 each), past the pages it
 * skips, re-reads after deletions included. A cap of 50 pages read from page 1 had stopped an ad group with over 5,000
 * comments in a day at the same 5,000 for good.
 */
const MAX_COMMENT_PAGES = 2_000;

type CommentPage = z.infer<typeof commentPage>;

/**
 * TikTok's list takes whole days only, so the rows a read already has (`settled`: every row up to a position in the
 * list's order) are the first pages of the position's day, however many. As the list is in that order and any page
 * can be asked for, the last page wholly settled is found by halving (its last row is the one looked at): about
 * log2(pages) requests, where reading on from page 1 cost one per page, every poll. The read starts there, a page before
 * the first unsettled row's: comments deleted meanwhile move later rows to earlier pages. With the page, the list's
 * `total_number` when it was read, from which the read measures later deletions.
 */
async function lastSettledPage(
  read: (page: number) => Promise<CommentPage>,
  first: CommentPage,
  settled: (row: CommentRow) => boolean,
): Promise<{ page: number; total: number | undefined }> {
  // Page `lo` ends settled (page 1, read by the caller); page `hi` does not, or is past the end.
  let lo = { page: 1, total: first.page_info?.total_number };
  let hi = (first.page_info?.total_page ?? 1) + 1;
  while (hi - lo.page > 1) {
    const mid = Math.floor((lo.page + hi) / 2);
    const data = await read(mid);
    const last = data.comments.at(-1);
    // An empty page is past the end (the list shrank since page 1).
    if (last && settled(last)) lo = { page: mid, total: data.page_info?.total_number };
    else hi = mid;
  }
  return lo;
}

/**
 * One ad group's comments from `since`'s day on, oldest first, page by page until the list ends or `enough`, given each
 * page's new rows as they arrive, says the rows so far suffice (the caller's window is full). With `settled`, the rows
 * the caller has no use for (every one up to a position in the list's order), the pages holding only those are
 * skipped, so the answer starts at most a page before the first row past them.
 *
 * Pages are by number, so a comment deleted on TikTok at or before the read's position while the read goes on moves
 * every later row a place earlier: the first row of the next page would end the page already read and never be seen.
 * Each answer's `page_info.total_number` counts the list; when it fell since the previous answer, the rows after the
 * ones the read has may have moved back as many places: the read steps back the pages that covers, drops the rows it
 * already has by comment id, and takes the page it held back once the pages before it are read again with no further
 * fall. New comments are the newest, at the list's end, so they move no earlier row; but the count is the net of both,
 * so a deletion between two answers is seen only as far as it outnumbers the comments added between the same two
 * (docs/decisions.md). Without a fall the read costs no request more.
 */
async function adGroupComments(
  token: string,
  a: TikTokAccount,
  adGroupId: string,
  since: string,
  { settled, enough = () => false }: { settled?: (row: CommentRow) => boolean; enough?: (page: CommentRow[]) => boolean } = {},
): Promise<CommentRow[]> {
  const read = (page: number) =>
    getData(
      token,
      "comment/list/",
      {
        advertiser_id: a.advertiserId,
        search_field: "ADGROUP_ID",
        search_value: adGroupId,
        start_time: since,
        end_time: day(new Date().toISOString()),
        comment_type: ["ALL"],
        comment_status: ["ALL"],
        sort_field: "CREATE_TIME",
        sort_type: "ASC",
        page,
        page_size: PAGE_SIZE,
      },
      commentPage,
      "the comment list",
    );
  const first = await read(1);
  const lastOfFirst = first.comments.at(-1);
  const skip = settled && lastOfFirst && settled(lastOfFirst) && (first.page_info?.total_page ?? 1) > 1 ? await lastSettledPage(read, first, settled) : null;
  let page = skip?.page ?? 1;
  // `next`: the page that held the row after the last one the read has when the list counted `total`.
  let next = skip ? skip.page + 1 : 1;
  let total = skip ? skip.total : first.page_info?.total_number;
  // The page whose answer showed a fall, taken as it is once the pages before it are read again with no further fall.
  let held = null as { page: number; data: CommentPage } | null;
  const seen = new Set<string>();
  const rows: CommentRow[] = [];
  for (let asked = 0; asked < MAX_COMMENT_PAGES; ) {
    let data: CommentPage;
    if (page === 1 && asked === 0) data = first;
    else if (held?.page === page) {
      data = held.data;
      held = null;
    } else {
      data = await read(page);
      asked++;
      const counted = data.page_info?.total_number;
      if (counted !== undefined) {
        if (total !== undefined && counted < total) {
          next = Math.max(1, next - Math.ceil((total - counted) / PAGE_SIZE));
          // A page held back before is out of date now.
          held = next < page ? { page, data } : null;
        }
        total = counted;
        if (next < page) {
          page = next;
          continue;
        }
      }
    }
    next = page + 1;
    const fresh = data.comments.filter((row) => !seen.has(row.comment_id));
    for (const row of fresh) seen.add(row.comment_id);
    rows.push(...fresh);
    // Every page goes to `enough`, the last one too.
    if (enough(fresh) || !data.page_info || page >= data.page_info.total_page) break;
    page++;
  }
  return rows;
}

async function adGroupsOf(token: string, a: TikTokAccount, adIds?: string[]): Promise<string[]> {
  if (adIds?.length) return [...new Set((await listAllAds(token, a, { ad_ids: adIds })).map((ad) => ad.adgroup_id))];
  return (await listAllAdGroups(token, a)).map((g) => g.adgroup_id);
}

export async function listComments(token: string, a: TikTokAccount, query: CommentsQuery): Promise<AdComment[]> {
  if (query.adExternalIds && query.adExternalIds.length === 0) return [];
  // TikTok keeps comments for its list going back a year at most; without a position, start there.
  const since = day(query.after ?? new Date(Date.now() - 365 * 86_400_000).toISOString());
  const after = query.after ? new Date(query.after).getTime() : null;
  // The rows at or before the position (without an id, every row at its time): pulled already. They are the list's
  // first rows as TikTok orders equal times by id, as the cursor does: our reading (docs/decisions.md), the one the
  // group's read stopping at `limit` inside a run of equal times relies on too.
  const settled =
    after === null
      ? undefined
      : (row: CommentRow) => {
          const t = timeOf(row);
          return t < after || (t === after && (query.afterExternalId === undefined || row.comment_id <= query.afterExternalId));
        };
  const wanted = (row: CommentRow, c: AdComment) => (!query.adExternalIds || query.adExternalIds.includes(c.adExternalId)) && !settled?.(row);
  const all: AdComment[] = [];
  for (const adGroupId of await adGroupsOf(token, a, query.adExternalIds)) {
    // Oldest first: once an ad group has given `limit` comments past the position, its later ones cannot be among the
    // `limit` oldest of all groups.
    let past = 0;
    await adGroupComments(token, a, adGroupId, since, {
      settled,
      enough: (page) => {
        for (const row of page) {
          const comment = toComment(row, a);
          if (wanted(row, comment)) {
            all.push(comment);
            past++;
          }
        }
        return past >= query.limit;
      },
    });
  }
  return all.sort((x, y) => x.createdAt.localeCompare(y.createdAt) || x.externalId.localeCompare(y.externalId)).slice(0, query.limit);
}

/**
 * Looks one comment up: in its ad's ad group when the inbox knows the ad, else across the advertiser's ad groups. The
 * siblings are the group's comments from the comment's page on (a page before it at most) when the inbox knows it,
 * else from a year back: with `withReplies`, all of them (the replies to it come later); else the read stops at the
 * comment. Null when TikTok no longer lists it: its list holds PUBLIC and HIDDEN comments only, so one deleted (by its
 * author, or by an earlier call whose answer was lost) is not there.
 */
async function lookUpComment(
  token: string,
  a: TikTokAccount,
  commentId: string,
  { withReplies = false }: { withReplies?: boolean } = {},
): Promise<{ row: CommentRow; siblings: CommentRow[] } | null> {
  const known = await getDb().adCommentItem.findFirst({
    where: { adAccountId: a.accountId, externalId: commentId },
    select: { adExternalId: true, commentedAt: true },
  });
  // From the comment's own day when the inbox knows it; its replies come after it, so the list from there holds them.
  const since = day((known?.commentedAt ?? new Date(Date.now() - 365 * 86_400_000)).toISOString());
  // The pages before the comment's are skipped.
  const at = known?.commentedAt.getTime();
  const settled = at === undefined ? undefined : (row: CommentRow) => timeOf(row) < at || (timeOf(row) === at && row.comment_id < commentId);
  for (const adGroupId of await adGroupsOf(token, a, known ? [known.adExternalId] : undefined)) {
    const rows = await adGroupComments(token, a, adGroupId, since, {
      settled,
      enough: (page) => !withReplies && page.some((r) => r.comment_id === commentId),
    });
    const row = rows.find((r) => r.comment_id === commentId);
    if (row) return { row, siblings: rows };
  }
  return null;
}

/**
 * TikTok's answer for an object that is not there: 40007 NOT_EXIST in its return-code table. Its comment endpoints'
 * reference names no code of their own for a deleted comment; that this is the one is our reading (docs/decisions.md).
 */
const NOT_EXIST = 40007;
const isGone = (err: unknown) => refusalCode(err) === NOT_EXIST;

const goneRefusal = (commentId: string, action: CommentGoneAction) => commentGoneRefusal("platform_b", commentId, "on TikTok", action);

/**
 * Hides or shows a comment. One that is gone (TikTok answers 40007, or no longer lists it) cannot be either: a terminal
 * refusal that says so, and that deleting it here is what clears it from the inbox (as on platform_a).
 */
export async function setCommentHidden(token: string, a: TikTokAccount, commentId: string, hidden: boolean): Promise<AdComment> {
  try {
    await postJson(
      token,
      "comment/status/update/",
      { advertiser_id: a.advertiserId, comment_ids: [commentId], operation: hidden ? "HIDDEN" : "PUBLIC" },
      z.unknown(),
      "the comment status change",
    );
  } catch (err) {
    throw isGone(err) ? goneRefusal(commentId, hidden ? "hidden" : "shown") : err;
  }
  const found = await lookUpComment(token, a, commentId);
  if (!found) throw goneRefusal(commentId, hidden ? "hidden" : "shown");
  return toComment(found.row, a);
}

/** Replies as the advertiser's identity. A comment that is gone (no longer listed, or 40007) is refused saying so, as a hide is. */
export async function replyToComment(token: string, a: TikTokAccount, commentId: string, message: string): Promise<AdComment> {
  const identityId = await identityOf(token, a);
  const found = await lookUpComment(token, a, commentId, { withReplies: true });
  if (!found) throw goneRefusal(commentId, "replied to");
  const { row, siblings } = found;
  // The same text to the same comment by the account is one reply: a retry finds the first.
  const earlier = siblings.find((r) => r.comment_type === "REPLY" && r.reply_to_comment_id === commentId && r.content === message && toComment(r, a).byPage);
  if (earlier) return toComment(earlier, a);
  const posted = await postJson(
    token,
    "comment/post/",
    {
      advertiser_id: a.advertiserId,
      ad_id: row.ad_id,
      tiktok_item_id: row.tiktok_item_id ?? "",
      comment_id: commentId,
      comment_type: "REPLY",
      text: message,
      identity_type: "CUSTOMIZED_USER",
      identity_id: identityId,
    },
    commentRow,
    "the reply",
  ).catch((err: unknown) => {
    throw isGone(err) ? goneRefusal(commentId, "replied to") : err;
  });
  return toComment(posted, a);
}

/**
 * TikTok deletes only the advertiser's own comments (its replies, posted as its identity): a viewer's
 * comment is refused here without calling TikTok, and can be hidden instead. One already gone (TikTok no longer
 * lists it, or answers 40007 NOT_EXIST: deleted by its author, or by an earlier call whose answer was lost) is what
 * a delete asks for: done, as on platform_a, not a refusal that would fail the moderator's delete every time.
 */
export async function deleteComment(token: string, a: TikTokAccount, commentId: string): Promise<void> {
  const identityId = await identityOf(token, a);
  const found = await lookUpComment(token, a, commentId);
  if (!found) return;
  const { row } = found;
  if (!toComment(row, a).byPage) {
    throw new PlatformError("invalid_input", `platform_b deletes only the advertiser's own comments: comment ${commentId} is a viewer's; hide it instead`, {
      retryable: false,
    });
  }
  try {
    await postJson(
      token,
      "comment/delete/",
      {
        advertiser_id: a.advertiserId,
        ad_id: row.ad_id,
        tiktok_item_id: row.tiktok_item_id ?? "",
        comment_id: commentId,
        identity_type: "CUSTOMIZED_USER",
        identity_id: identityId,
      },
      z.unknown(),
      "the comment delete",
    );
  } catch (err) {
    if (!isGone(err)) throw err;
  }
}
