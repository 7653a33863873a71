import type { Principal } from "@/lib/auth/principal";
import { getConfig } from "@/lib/services";
import { getDb } from "@/lib/db/client";
import { AppError, notFound } from "@/lib/errors";
import { canUseFolder, folderScope } from "@/lib/folders/access";
import type { ReviewLink } from "@/lib/generated/prisma/client";
import { afterCursor, NEWEST_FIRST, toPage } from "@/lib/pagination/cursor";
import { newId } from "@/lib/ids";
import { hashPassword } from "@/lib/session/password";
import { hashLinkToken, newLinkToken } from "./link-token";
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
  };
}

/** Absolute address of a link's guest page. */
export const reviewLinkUrl = (token: string) => `${getConfig().publicBaseUrl}/review/${token}`;

/**
 * Creates a review link for chosen creatives or one folder. The token is returned once
 * (only its SHA-256 is kept); the password is kept as an scrypt hash.
 */
export async function createReviewLink(principal: Principal, input: CreateLinkInput): Promise<{ link: ReviewLinkView; token: string; url: string }> {
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
  const token = newLinkToken();
  const passwordHash = input.password ? await hashPassword(input.password) : null;
  const link = await db.reviewLink.create({
    data: {
      id: newId("rvl"),
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
  return { links: page.items.map(toLinkView), nextCursor: page.nextCursor };
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
