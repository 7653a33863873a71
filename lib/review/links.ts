import type { Principal } from "@/lib/auth/principal";
import { getConfig } from "@/lib/services";
import { getDb } from "@/lib/db/client";
import { AppError, notFound } from "@/lib/errors";
import { canUseFolder, folderScope } from "@/lib/folders/access";
import type { Prisma, ReviewLink } from "@/lib/generated/prisma/client";
import { afterCursor, NEWEST_FIRST, toPage } from "@/lib/pagination/cursor";
import { newId } from "@/lib/ids";
import { hashPassword } from "@/lib/session/password";
import { hashLinkToken, linkTokenFor, recoverLinkToken } from "./link-token";
import type { ReviewLinkView } from "./schemas";

export const LINK_CREATIVES_MAX = 200;
export const LINK_PASSWORD_MIN = 6;

export interface CreateLinkInput {
  name: string;
  creativeIds?: string[];
  folderId?: string;
  password?: string;
  expiresAt?: string;
  permissions?: { comment?: boolean; decide?: boolean; download?: boolean; internalComments?: boolean };
}

type LinkRow = ReviewLink & { creatives: { creativeId: string }[] };

export function linkState(link: Pick<ReviewLink, "revokedAt" | "expiresAt">, now = new Date()): ReviewLinkView["state"] {
  if (link.revokedAt) return "revoked";
  if (link.expiresAt && link.expiresAt <= now) return "expired";
  return "active";
}

export function toLinkView(link: LinkRow): ReviewLinkView {
  return {
    id: link.id,
    name: link.name,
    state: linkState(link),
    folderId: link.folderId,
    creativeIds: link.creatives.map((c) => c.creativeId),
    passwordProtected: link.passwordHash !== null,
    expiresAt: link.expiresAt?.toISOString() ?? null,
    permissions: { comment: link.canComment, decide: link.canDecide, download: link.allowDownload, internalComments: link.showInternalComments },
    createdAt: link.createdAt.toISOString(),
    revokedAt: link.revokedAt?.toISOString() ?? null,
    copyable: recoverLinkToken(link) !== null,
  };
}

/** Absolute address of a link's guest page. */
export const reviewLinkUrl = (token: string) => `${getConfig().publicBaseUrl}/review/${token}`;

/**
 * Creates a review link for chosen creatives or one folder. The token is returned once
 * (only its SHA-256 is kept); the password is kept as an scrypt hash. `alsoInTransaction` writes
 * what else belongs to the link (a board's share) in the link's own transaction: both or neither.
 */
export async function createReviewLink(
  principal: Principal,
  input: CreateLinkInput,
  alsoInTransaction?: (tx: Prisma.TransactionClient, linkId: string) => Promise<void>,
): Promise<{ link: ReviewLinkView; token: string; url: string }> {
  const ids = [...new Set(input.creativeIds ?? [])];
  if (!ids.length === !input.folderId) throw new AppError("invalid_request", "Give either creativeIds or folderId");
  const db = getDb();
  if (ids.length) {
    const visible = await db.creative.findMany({
      where: { id: { in: ids }, workspaceId: principal.workspaceId, ...(await folderScope(principal)) },
      select: { id: true },
    });
    const missing = ids.filter((id) => !visible.some((v) => v.id === id));
    if (missing.length) throw notFound(`Creative ${missing.join(", ")}`);
  } else {
    const folder = await db.folder.findFirst({ where: { id: input.folderId, workspaceId: principal.workspaceId } });
    if (!folder || !(await canUseFolder(principal, folder.id))) throw notFound("Folder");
  }
  let expiresAt: Date | null = null;
  if (input.expiresAt) {
    expiresAt = new Date(input.expiresAt);
    if (Number.isNaN(expiresAt.getTime())) throw new AppError("invalid_request", "expiresAt: not a date-time");
    if (expiresAt <= new Date()) throw new AppError("invalid_request", "expiresAt: must be in the future");
  }
  const id = newId("rvl");
  const token = linkTokenFor(id);
  const passwordHash = input.password ? await hashPassword(input.password) : null;
  const link = await db.$transaction(async (tx) => {
    const row = await tx.reviewLink.create({
      data: {
        id,
        workspaceId: principal.workspaceId,
        createdById: principal.userId,
        name: input.name,
        tokenHash: hashLinkToken(token),
        folderId: input.folderId ?? null,
        passwordHash,
        expiresAt,
        canComment: input.permissions?.comment ?? true,
        canDecide: input.permissions?.decide ?? false,
        allowDownload: input.permissions?.download ?? false,
        showInternalComments: input.permissions?.internalComments ?? false,
        creatives: { create: ids.map((creativeId) => ({ creativeId })) },
      },
      include: { creatives: { select: { creativeId: true } } },
    });
    await alsoInTransaction?.(tx, row.id);
    return row;
  });
  return { link: toLinkView(link), token, url: reviewLinkUrl(token) };
}

/** The workspace's review links, newest first (folder-scoped members see the links they created). */
export async function listReviewLinks(
  principal: Principal,
  input: { limit: number; cursor?: string },
): Promise<{ links: ReviewLinkView[]; nextCursor: string | null }> {
  const rows = await getDb().reviewLink.findMany({
    where: { workspaceId: principal.workspaceId, ...(principal.folderIds ? { createdById: principal.userId } : {}), ...afterCursor(input.cursor) },
    orderBy: NEWEST_FIRST,
    take: input.limit + 1,
    include: { creatives: { select: { creativeId: true } } },
  });
  const page = toPage(rows, input.limit);
  const shares = await sharesOf(principal.workspaceId, page.items);
  return { links: page.items.map((l) => ({ ...toLinkView(l), shares: shares.get(l.id)! })), nextCursor: page.nextCursor };
}

const SHARED_NAMES_MAX = 5;

/** What each link shares, by name: its folder, or its first creatives' file names (two queries for the page). */
async function sharesOf(workspaceId: string, links: LinkRow[]): Promise<Map<string, NonNullable<ReviewLinkView["shares"]>>> {
  const db = getDb();
  const folderIds = [...new Set(links.map((l) => l.folderId).filter((x): x is string => Boolean(x)))];
  const creativeIds = [...new Set(links.flatMap((l) => l.creatives.slice(0, SHARED_NAMES_MAX).map((c) => c.creativeId)))];
  const [folders, creatives] = await Promise.all([
    folderIds.length ? db.folder.findMany({ where: { id: { in: folderIds }, workspaceId }, select: { id: true, name: true } }) : [],
    creativeIds.length ? db.creative.findMany({ where: { id: { in: creativeIds }, workspaceId }, select: { id: true, fileName: true } }) : [],
  ]);
  const folderName = new Map(folders.map((f) => [f.id, f.name]));
  const fileName = new Map(creatives.map((c) => [c.id, c.fileName]));
  return new Map(
    links.map((l) => [
      l.id,
      {
        folderName: l.folderId ? (folderName.get(l.folderId) ?? null) : null,
        creativeNames: l.creatives
          .slice(0, SHARED_NAMES_MAX)
          .map((c) => fileName.get(c.creativeId))
          .filter((n): n is string => Boolean(n)),
        creativeCount: l.creatives.length,
      },
    ]),
  );
}

/**
 * A link's address again, for those who may manage it (the same as revoking: review.share, and a
 * folder-scoped member only for links they made). A revoked or expired link has none worth sharing.
 */
export async function getReviewLinkUrl(principal: Principal, input: { id: string }): Promise<{ url: string }> {
  const link = await getDb().reviewLink.findFirst({
    where: { id: input.id, workspaceId: principal.workspaceId, ...(principal.folderIds ? { createdById: principal.userId } : {}) },
  });
  if (!link) throw notFound("Review link");
  const state = linkState(link);
  if (state !== "active") throw new AppError("conflict", `The link is ${state}; share a new one`);
  const token = recoverLinkToken(link);
  if (!token) throw new AppError("conflict", "This link's address was shown once, when it was made (before links could be copied again); share a new one");
  return { url: reviewLinkUrl(token) };
}

/** Revokes a link; its next request (page, media, comment) finds nothing. Revoking twice is harmless. */
export async function revokeReviewLink(principal: Principal, input: { id: string }): Promise<{ link: ReviewLinkView }> {
  const db = getDb();
  const link = await db.reviewLink.findFirst({
    where: { id: input.id, workspaceId: principal.workspaceId, ...(principal.folderIds ? { createdById: principal.userId } : {}) },
  });
  if (!link) throw notFound("Review link");
  const row = await db.reviewLink.update({
    where: { id: link.id },
    data: { revokedAt: link.revokedAt ?? new Date() },
    include: { creatives: { select: { creativeId: true } } },
  });
  return { link: toLinkView(row) };
}
