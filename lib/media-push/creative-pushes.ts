import type { Principal } from "@/lib/auth/principal";
import { isCreativeVisible } from "@/lib/creatives/list-creatives";
import { getDb, sqlOf } from "@/lib/db/client";
import { AppError, conflict, notFound } from "@/lib/errors";
import type { AdAccount, Creative, MediaPush } from "@/lib/generated/prisma/client";
import { newId } from "@/lib/ids";
import { enqueueInTransaction } from "@/lib/jobs/outbox";
import { reconnectHint } from "@/lib/platforms";
import { MEDIA_PUSH_REQUESTED_EVENT, toMediaPush, type MediaPushRequestedData } from "./schema";
import { failPush, isChunked, requeuedPush, transferOnce } from "./transfer";
import { isUniqueViolation } from "@/lib/db/errors";

/**
 * The platform's id for the creative's media on the account, or null when it is not there yet: a
 * ready push of the creative's current file, or (for creatives uploaded before pushes were recorded)
 * the id its upload got on that platform's default account. A push or upload of an earlier version's
 * file does not count: ads made after a new version show the new one.
 */
export async function mediaIdOnAccount(
  creative: Pick<Creative, "id" | "workspaceId" | "storageKey">,
  account: Pick<AdAccount, "id" | "platform" | "defaultFor">,
): Promise<string | null> {
  const db = getDb();
  const push = await db.mediaPush.findUnique({ where: { creativeId_adAccountId: { creativeId: creative.id, adAccountId: account.id } } });
  if (push) return push.state === "ready" && push.storageKey === creative.storageKey ? push.externalId : null;
  if (account.defaultFor !== account.platform) return null;
  const upload = await db.upload.findFirst({
    where: { workspaceId: creative.workspaceId, creativeId: creative.id, platform: account.platform, status: "completed" },
  });
  if (!upload || upload.storageKey !== creative.storageKey) return null;
  // An upload whose push was recorded went to that push's account, which may no longer be the default.
  if (await db.mediaPush.findFirst({ where: { uploadId: upload.id }, select: { id: true } })) return null;
  return account.platform === "platform_a" ? (upload.platformAImageHash ?? upload.platformAVideoId) : (upload.platformBImageId ?? upload.platformBVideoId);
}

/**
 * The creative's push to the account: the existing one, or a new queued one. A failed one starts over as the next
 * run, and so does one of an earlier version's file, with the current file (a run still sending the old file is
 * stale from then on). With `startJob`, a fresh push's job event commits with it, so a push is never left queued
 * with no job.
 */
async function openCreativePush(creative: Creative, account: AdAccount, startJob: boolean): Promise<{ push: MediaPush; fresh: boolean }> {
  const db = getDb();
  const key = { creativeId_adAccountId: { creativeId: creative.id, adAccountId: account.id } };
  const existing = await db.mediaPush.findUnique({ where: key });
  const ofCurrentFile = existing?.storageKey === creative.storageKey;
  if (existing && ofCurrentFile && existing.state !== "failed") return { push: existing, fresh: false };
  try {
    const { push, fresh, wake } = await db.$transaction(async (tx) => {
      let opened: { push: MediaPush; fresh: boolean };
      if (existing) {
        const { count } = await tx.mediaPush.updateMany({
          where: { id: existing.id, jobRun: existing.jobRun, state: existing.state },
          data: { ...requeuedPush(existing.jobRun + 1), ...(ofCurrentFile ? {} : fileOf(creative)) },
        });
        opened = { push: await tx.mediaPush.findUniqueOrThrow({ where: key }), fresh: count > 0 };
      } else {
        opened = {
          push: await tx.mediaPush.create({
            data: {
              id: newId("mpush"),
              workspaceId: creative.workspaceId,
              adAccountId: account.id,
              platform: account.platform,
              creativeId: creative.id,
              ...fileOf(creative),
            },
          }),
          fresh: true,
        };
      }
      const wake = startJob && opened.fresh ? await enqueueInTransaction(sqlOf(tx), [pushJobEvent(opened.push)]) : async () => undefined;
      return { ...opened, wake };
    });
    await wake();
    return { push, fresh };
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    return { push: await db.mediaPush.findUniqueOrThrow({ where: key }), fresh: false };
  }
}

function fileOf(creative: Creative) {
  return {
    fileName: creative.fileName,
    kind: creative.kind,
    contentType: creative.contentType,
    sizeBytes: creative.sizeBytes,
    storageKey: creative.storageKey,
  };
}

async function requireReadyCreative(principal: Principal, creativeId: string): Promise<Creative> {
  if (!(await isCreativeVisible(principal, creativeId))) throw notFound(`Creative ${creativeId}`);
  const creative = await getDb().creative.findFirst({ where: { id: creativeId, workspaceId: principal.workspaceId } });
  if (!creative) throw notFound(`Creative ${creativeId}`);
  if (creative.status !== "ready") throw conflict(`Creative ${creativeId} is ${creative.status}; only a ready creative can be sent to an ad account`);
  return creative;
}

/** An account of the workspace that can receive media; `not_connected` (with how to reconnect) when it is not active. */
async function requireActiveAccount(principal: Principal, adAccountId: string): Promise<AdAccount> {
  const account = await getDb().adAccount.findFirst({ where: { id: adAccountId, workspaceId: principal.workspaceId } });
  if (!account) throw notFound(`Ad account ${adAccountId}`);
  if (account.status !== "active") {
    throw new AppError("not_connected", `Ad account ${account.externalAccountId} (${account.platform}) is ${account.status}. ${reconnectHint(account)}`);
  }
  return account;
}

function pushJobEvent(push: MediaPush) {
  return {
    name: MEDIA_PUSH_REQUESTED_EVENT,
    id: `${push.id}-run-${push.jobRun}`,
    data: { pushId: push.id, workspaceId: push.workspaceId, jobRun: push.jobRun } satisfies MediaPushRequestedData as unknown as Record<string, unknown>,
  };
}

/**
 * Sends a library creative's media to one of the workspace's ad accounts, in the background (the
 * media-push job): the same creative, never a copy. Already there or on its way: answers that push.
 */
export async function sendCreativeToAdAccount(principal: Principal, input: { creativeId: string; adAccountId: string }) {
  const creative = await requireReadyCreative(principal, input.creativeId);
  const account = await requireActiveAccount(principal, input.adAccountId);
  const legacyId = await mediaIdOnAccount(creative, account);
  if (legacyId) {
    const { push } = await openCreativePush(creative, account, false);
    if (push.state !== "ready") {
      await getDb().mediaPush.updateMany({ where: { id: push.id, state: "queued" }, data: { state: "ready", externalId: legacyId, finishedAt: new Date() } });
    }
    return { push: toMediaPush(await getDb().mediaPush.findUniqueOrThrow({ where: { id: push.id } })), sent: false };
  }
  const { push, fresh } = await openCreativePush(creative, account, true);
  return { push: toMediaPush(push), sent: fresh };
}

/** Where the creative's media is: one push per ad account it was sent to. */
export async function listCreativePushes(principal: Principal, input: { creativeId: string }) {
  if (!(await isCreativeVisible(principal, input.creativeId))) throw notFound(`Creative ${input.creativeId}`);
  const rows = await getDb().mediaPush.findMany({ where: { workspaceId: principal.workspaceId, creativeId: input.creativeId }, orderBy: { createdAt: "asc" } });
  return { pushes: rows.map(toMediaPush) };
}

/** Where the creative's media stands for an ad on the account: its id there, or a chunked push still on its way. */
export type MediaForAd = { mediaId: string } | { pending: MediaPush; fresh: boolean };

/**
 * The media id an ad on the account uses, pushing the creative there first when it is not yet
 * present: in this call for media that goes in one request (images, small videos). A large video
 * answers its push (opened here when `fresh`): the caller's ad-build job sends it in chunks, waits
 * for the platform's processing, then builds the ad.
 */
export async function ensureMediaOnAccount(creative: Creative, account: AdAccount): Promise<MediaForAd> {
  const present = await mediaIdOnAccount(creative, account);
  if (present) return { mediaId: present };
  const { push, fresh } = await openCreativePush(creative, account, false);
  if (isChunked(creative.kind, creative.sizeBytes)) return { pending: push, fresh };
  const outcome = await transferOnce(push.id, { jobRun: push.jobRun, attempt: 1 });
  if (outcome.ok) return { mediaId: outcome.externalId };
  if ("stale" in outcome) throw conflict(`Creative ${creative.id} is being sent to ad account ${account.externalAccountId}; try again shortly`);
  if (!outcome.retryable) await failPush(push.id, push.jobRun, outcome.message);
  throw new AppError(outcome.code as "upstream_error", outcome.message);
}
