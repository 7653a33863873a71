import { ensureThumbnails, thumbnailKey } from "@/lib/creatives/renditions";
import { getDb } from "@/lib/db/client";
import { AppError, notFound } from "@/lib/errors";
import type { ReviewComment, ReviewLink } from "@/lib/generated/prisma/client";
import { enforceRateLimit } from "@/lib/rate-limit/rate-limit";
import { beginAttempt, clearFailures } from "@/lib/session/throttle";
import { verifyPassword, dummyPasswordHash } from "@/lib/session/password";
import type { ReviewActor } from "./actor";
import { toThreads, writeComment, type NewComment } from "./comments";
import { hashLinkToken, isWellFormedToken } from "./link-token";
import { linkState } from "./links";
import { afterCursorOldestFirst, OLDEST_FIRST, toPage } from "@/lib/pagination/cursor";
import { applyReviewStatus } from "./status";
import { signedGuestMediaUrl, verifyGuestPass, type GuestRendition } from "./guest-signing";
import type { Decision, ReviewStatusValue, Thread } from "./schemas";

/** Requests per minute one link serves (page, media, comments together). */
export const GUEST_REQUESTS_PER_MINUTE = 600;
/** Every wrong password costs this long, so guessing is slow whatever the throttle says. */
export const WRONG_PASSWORD_DELAY_MS = 1000;
/** Wrong passwords one link takes per 15 minutes (lib/session/throttle.ts), counted per link. */
const LINK_PASSWORD_ATTEMPTS = { name: "review-link-password", max: 10 };

/** Wrong, expired and revoked tokens all give this one answer: nothing tells them apart. */
export const linkUnavailable = () => notFound("Review link");

/**
 * The active link a token opens, after counting the request against the link's rate limit;
 * otherwise the one not-found answer. Revocation and expiry count from this request on.
 */
export async function openLink(token: string): Promise<ReviewLink> {
  if (!isWellFormedToken(token)) throw linkUnavailable();
  const tokenHash = hashLinkToken(token);
  await enforceRateLimit(`review-link:${tokenHash.slice(0, 32)}`, GUEST_REQUESTS_PER_MINUTE);
  const link = await getDb().reviewLink.findUnique({ where: { tokenHash } });
  if (!link || linkState(link) !== "active") throw linkUnavailable();
  const workspace = await getDb().workspace.findUnique({ where: { id: link.workspaceId }, select: { status: true } });
  if (workspace?.status !== "active") throw linkUnavailable();
  return link;
}

/** Whether the browser may see the link's content (no password, or its pass cookie holds). */
export function hasAccess(link: ReviewLink, passCookie: string | undefined): boolean {
  return link.passwordHash === null || verifyGuestPass(link.id, link.passwordHash, passCookie);
}

export function requireAccess(link: ReviewLink, passCookie: string | undefined): void {
  if (!hasAccess(link, passCookie)) throw new AppError("unauthorized", "This review link needs its password");
}

/**
 * Checks a guest's password. A wrong one always costs WRONG_PASSWORD_DELAY_MS, and after 10
 * failures in 15 minutes the link refuses every password (right ones too) for the rest of the window.
 */
export async function checkLinkPassword(link: ReviewLink, password: string): Promise<boolean> {
  const ok = (await beginAttempt(LINK_PASSWORD_ATTEMPTS, link.id)) && (await verifyPassword(password, link.passwordHash ?? (await dummyPasswordHash())));
  if (ok) {
    await clearFailures(LINK_PASSWORD_ATTEMPTS, link.id);
    return true;
  }
  await new Promise((r) => setTimeout(r, WRONG_PASSWORD_DELAY_MS));
  return false;
}

/** Folder and subfolders, for a folder link. */
async function folderTree(workspaceId: string, rootId: string): Promise<string[]> {
  const folders = await getDb().folder.findMany({ where: { workspaceId }, select: { id: true, parentId: true } });
  const ids = new Set([rootId]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const f of folders) if (f.parentId && ids.has(f.parentId) && !ids.has(f.id)) ids.add(f.id), (grew = true);
  }
  return [...ids];
}

/** The `where` that selects exactly the creatives a link shares (ready ones, in the link's workspace). */
async function linkCreativeWhere(link: ReviewLink) {
  const base = { workspaceId: link.workspaceId, status: "ready" as const };
  if (link.folderId) return { ...base, folderId: { in: await folderTree(link.workspaceId, link.folderId) } };
  return { ...base, reviewLinks: { some: { linkId: link.id } } };
}

/** One creative the link shares, or the same not-found as any unknown id. */
export async function linkCreative(link: ReviewLink, creativeId: string) {
  const row = await getDb().creative.findFirst({ where: { id: creativeId, ...(await linkCreativeWhere(link)) } });
  if (!row) throw notFound("Creative");
  return row;
}

export interface GuestCreative {
  id: string;
  fileName: string;
  kind: "image" | "video";
  width: number | null;
  height: number | null;
  durationSeconds: number | null;
  /** Images: the 960 px thumbnail (pins are relative, so they sit the same); videos: the preview or original. */
  mediaUrl: string;
  /** A video's poster frame (960 px WebP); null for images. */
  posterUrl: string | null;
  posterless: boolean;
  downloadUrl: string | null;
  status: ReviewStatusValue;
  versionNumber: number;
  threads: GuestThread[];
}

/** A thread as guests see it: no internal user ids (teammates are named, never identified). */
export type GuestThread = Omit<Thread, "authorUserId" | "replies"> & { replies: Omit<Thread["replies"][number], "authorUserId">[] };

/**
 * The threads a link's guests see: those guests started through this link (with every reply, the team's
 * answers included), and the team's own threads when the link shares its internal comments. Never the
 * threads other links' guests started (another client's review). Without user ids.
 */
export function guestThreads(link: Pick<ReviewLink, "id" | "showInternalComments">, rows: ReviewComment[]): GuestThread[] {
  const starters = new Map(rows.filter((r) => r.parentId === null).map((r) => [r.id, r]));
  const visible = rows.filter((r) => {
    const starter = r.parentId === null ? r : starters.get(r.parentId);
    return starter !== undefined && threadVisibleTo(link, starter);
  });
  return toThreads(visible).map(({ authorUserId: _thread, replies, ...thread }) => ({
    ...thread,
    replies: replies.map(({ authorUserId: _reply, ...reply }) => reply),
  }));
}

/** Whether a link's guests see a thread, by its first comment: their own link's, or the team's when shared. */
function threadVisibleTo(link: Pick<ReviewLink, "id" | "showInternalComments">, starter: Pick<ReviewComment, "authorUserId" | "linkId">): boolean {
  if (starter.authorUserId !== null) return link.showInternalComments;
  return starter.linkId === link.id;
}

export interface GuestView {
  linkName: string;
  permissions: { comment: boolean; decide: boolean; download: boolean };
  /** How many creatives the link shares now (every page together). */
  creativeCount: number;
  /** One page of them, oldest first. */
  creatives: GuestCreative[];
  /** Pass it back as `cursor` for the next page; null on the last. */
  nextCursor: string | null;
}

/** Creatives per page of the guest view: the page's first screenful, and each "load more". */
export const GUEST_PAGE = { defaultLimit: 50, maxLimit: 200 } as const;

type CreativeRow = Awaited<ReturnType<typeof linkCreative>>;

/** The guest's view of creatives, with their review rows and current-version comments read in two queries. */
async function guestCreativeViews(token: string, link: ReviewLink, rows: CreativeRow[]): Promise<GuestCreative[]> {
  const ids = rows.map((r) => r.id);
  const db = getDb();
  const [reviews, comments] = await Promise.all([
    db.creativeReview.findMany({ where: { creativeId: { in: ids } } }),
    db.reviewComment.findMany({ where: { creativeId: { in: ids } }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] }),
  ]);
  const reviewOf = new Map(reviews.map((r) => [r.creativeId, r]));
  return rows.map((row) => {
    const review = reviewOf.get(row.id);
    const versionNumber = review?.currentVersion ?? 1;
    const rendition: GuestRendition = row.kind === "image" ? "thumbnail" : row.previewStorageKey ? "preview" : "original";
    return {
      id: row.id,
      fileName: row.fileName,
      kind: row.kind,
      width: row.width,
      height: row.height,
      durationSeconds: row.durationMs === null ? null : row.durationMs / 1000,
      mediaUrl: signedGuestMediaUrl(token, link.id, row.id, rendition),
      posterUrl: row.kind === "video" ? signedGuestMediaUrl(token, link.id, row.id, "thumbnail") : null,
      posterless: row.kind === "video",
      downloadUrl: link.allowDownload ? signedGuestMediaUrl(token, link.id, row.id, "download") : null,
      status: review?.status ?? "none",
      versionNumber,
      threads: guestThreads(
        link,
        comments.filter((c) => c.creativeId === row.id && c.versionNumber === versionNumber),
      ),
    };
  });
}

/**
 * What the guest page shows, a page at a time: exactly the link's creatives (oldest first, keyset-paginated
 * so a folder of any size is reached to its end), their current version, status and threads.
 */
export async function guestView(token: string, link: ReviewLink, page: { limit?: number; cursor?: string } = {}): Promise<GuestView> {
  const limit = page.limit ?? GUEST_PAGE.defaultLimit;
  const where = await linkCreativeWhere(link);
  const db = getDb();
  const [rows, creativeCount] = await Promise.all([
    db.creative.findMany({ where: { ...where, ...afterCursorOldestFirst(page.cursor) }, orderBy: OLDEST_FIRST, take: limit + 1 }),
    db.creative.count({ where }),
  ]);
  const { items, nextCursor } = toPage(rows, limit);
  return {
    linkName: link.name,
    permissions: { comment: link.canComment, decide: link.canDecide, download: link.allowDownload },
    creativeCount,
    creatives: await guestCreativeViews(token, link, items),
    nextCursor,
  };
}

/** One creative of the guest view (after a comment or a decision). */
export async function guestCreative(token: string, link: ReviewLink, creativeId: string): Promise<GuestCreative> {
  return (await guestCreativeViews(token, link, [await linkCreative(link, creativeId)]))[0]!;
}

export interface GuestIdentity {
  name: string;
  email?: string | null;
}

const guestActor = (link: ReviewLink, who: GuestIdentity): ReviewActor => ({ kind: "guest", name: who.name, email: who.email ?? null, linkId: link.id });

/** A guest's comment or reply, when the link allows comments. */
export async function guestComment(token: string, link: ReviewLink, input: { creativeId: string; who: GuestIdentity } & NewComment): Promise<GuestCreative> {
  if (!link.canComment) throw new AppError("forbidden", "This review link does not allow comments");
  const creative = await linkCreative(link, input.creativeId);
  // A reply goes only into a thread this link shows: not the team's unshared one, nor another link's guests'.
  if (input.parentId) {
    const db = getDb();
    const parent = await db.reviewComment.findFirst({
      where: { id: input.parentId, creativeId: creative.id },
      select: { parentId: true, authorUserId: true, linkId: true },
    });
    const starter = parent?.parentId
      ? await db.reviewComment.findFirst({ where: { id: parent.parentId }, select: { authorUserId: true, linkId: true } })
      : parent;
    if (!starter || !threadVisibleTo(link, starter)) throw notFound("Comment");
  }
  await writeComment(creative, guestActor(link, input.who), { body: input.body, parentId: input.parentId, timeSeconds: input.timeSeconds, pin: input.pin });
  return guestCreative(token, link, creative.id);
}

/** A guest's decision (approve or request changes), when the link allows decisions. */
export async function guestDecision(
  token: string,
  link: ReviewLink,
  input: { creativeId: string; who: GuestIdentity; decision: Decision; note?: string | null },
): Promise<GuestCreative> {
  if (!link.canDecide) throw new AppError("forbidden", "This review link does not allow approving or requesting changes");
  const creative = await linkCreative(link, input.creativeId);
  await applyReviewStatus(creative, input.decision, guestActor(link, input.who), input.note);
  return guestCreative(token, link, creative.id);
}

/** Storage of the media a signed guest URL names: always the creative's current version. */
export async function guestMedia(link: ReviewLink, creativeId: string, rendition: GuestRendition) {
  const row = await linkCreative(link, creativeId);
  if (rendition === "download" && !link.allowDownload) throw notFound("Media");
  if (rendition === "thumbnail") {
    if (!(await ensureThumbnails(row).catch(() => false))) throw notFound("Media");
    return { storageKey: thumbnailKey(row, 960), contentType: "image/webp", fileName: row.fileName };
  }
  if (rendition === "preview") {
    if (!row.previewStorageKey) throw notFound("Media");
    return { storageKey: row.previewStorageKey, contentType: "video/mp4", fileName: row.fileName };
  }
  return { storageKey: row.storageKey, contentType: row.contentType, fileName: row.fileName };
}
