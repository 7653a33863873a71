import { z } from "zod";
import type { Principal } from "@/lib/auth/principal";
import { getDb, sqlOf } from "@/lib/db/client";
import { isAppError } from "@/lib/errors";
import type { Prisma, AdBuild, MediaPush } from "@/lib/generated/prisma/client";
import { newId } from "@/lib/ids";
import { enqueueInTransaction } from "@/lib/jobs/outbox";
import { PlatformError } from "@/lib/platforms";
import type { CallToAction } from "@/lib/platforms/ads-types";
import { principalForUser } from "@/lib/session/principal";
import { makeAd, planAd, type PlannedAd } from "./ads";
import { isUniqueViolation } from "@/lib/db/errors";

/**
 * Ads whose creative is not yet on the ad account (a large video, pushed in chunks) are built by a
 * job, not in the call: the call records an AdBuild and answers it pending; the `ad-build` job sends
 * the media (or waits for the push already under way), waits for the platform's processing with
 * durable sleeps, then builds the ad exactly as the call would have (same clientRef, so never twice).
 */
export const AD_BUILD_REQUESTED_EVENT = "ads/build.requested";
export interface AdBuildRequestedData {
  buildId: string;
  workspaceId: string;
  run: number;
}

export const AD_BUILD_STATES = ["waiting_for_media", "built", "failed"] as const;

export const AdBuildSchema = z
  .object({
    id: z.string(),
    state: z
      .enum(AD_BUILD_STATES)
      .describe("waiting_for_media: the creative's media is being sent to the ad account (and processed there); built: adId is the ad; failed: error says why"),
    adSetId: z.string(),
    creativeId: z.string(),
    copyVariantId: z.string().nullable(),
    name: z.string(),
    pushId: z.string().describe("The creative's push to the ad account (list_creative_pushes shows its chunk progress)"),
    adId: z.string().nullable().describe("The ad, once built"),
    error: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .describe(
    "An ad being built in the background because its creative is still on its way to the ad account; asking for the same ad again answers it, then the ad",
  );
export type AdBuildOut = z.input<typeof AdBuildSchema>;

export const toAdBuild = (r: AdBuild): AdBuildOut => ({
  id: r.id,
  state: r.state as AdBuildOut["state"],
  adSetId: r.adSetId,
  creativeId: r.creativeId,
  copyVariantId: r.copyVariantId,
  name: r.name,
  pushId: r.pushId,
  adId: r.adId,
  error: r.error,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

/** The build's job event, stored in the transaction that queues the build: a build is never left waiting with no job. */
async function enqueueBuildJob(tx: Prisma.TransactionClient, build: AdBuild): Promise<() => Promise<void>> {
  return enqueueInTransaction(sqlOf(tx), [
    {
      name: AD_BUILD_REQUESTED_EVENT,
      id: `${build.id}-run-${build.run}`,
      data: { buildId: build.id, workspaceId: build.workspaceId, run: build.run } satisfies AdBuildRequestedData as unknown as Record<string, unknown>,
    },
  ]);
}

/**
 * Records the ad to build once the creative's push is ready and starts the job; the build already
 * asked for (same clientRef) is answered as is, and a failed one runs again.
 */
export async function queueAdBuild(principal: Principal, plan: PlannedAd, clientRef: string, push: MediaPush, ownsPush: boolean): Promise<AdBuild> {
  const db = getDb();
  const key = { clientRef_workspaceId: { clientRef, workspaceId: principal.workspaceId } };
  const existing = await db.adBuild.findUnique({ where: key });
  if (existing && existing.state !== "failed") return existing;
  const target = { pushId: push.id, pushJobRun: push.jobRun, ownsPush, state: "waiting_for_media", error: null, adId: null };
  try {
    const { build, wake } = await db.$transaction(async (tx) => {
      if (existing) {
        const { count } = await tx.adBuild.updateMany({
          where: { id: existing.id, run: existing.run, state: "failed" },
          data: { ...target, run: existing.run + 1 },
        });
        const build = await tx.adBuild.findUniqueOrThrow({ where: key });
        return { build, wake: count ? await enqueueBuildJob(tx, build) : async () => undefined };
      }
      const build = await tx.adBuild.create({
        data: {
          id: newId("adbuild"),
          workspaceId: principal.workspaceId,
          clientRef,
          adSetId: plan.adSet.id,
          creativeId: plan.creative.id,
          copyVariantId: plan.copy?.id ?? null,
          name: plan.name,
          callToAction: plan.callToAction,
          landingUrl: plan.landingUrl,
          leadFormId: plan.leadFormId,
          draftId: plan.draftId,
          createdById: principal.userId,
          ...target,
        },
      });
      return { build, wake: await enqueueBuildJob(tx, build) };
    });
    await wake();
    return build;
  } catch (err) {
    // Two calls for the same ad at once: the first recorded build is the build.
    if (!isUniqueViolation(err)) throw err;
    return db.adBuild.findUniqueOrThrow({ where: key });
  }
}

/** The build as the job sees it; null when it is gone or another run took it over. */
export async function buildForRun(buildId: string, run: number): Promise<Pick<AdBuild, "pushId" | "pushJobRun" | "ownsPush" | "state"> | null> {
  const build = await getDb().adBuild.findUnique({ where: { id: buildId } });
  if (!build || build.run !== run) return null;
  return { pushId: build.pushId, pushJobRun: build.pushJobRun, ownsPush: build.ownsPush, state: build.state };
}

/** Where a push the build does not own stands: ready, failed (with the reason) or still on its way. */
export async function pushStateOf(pushId: string): Promise<{ state: "ready" } | { state: "failed"; reason: string } | { state: "waiting" }> {
  const push = await getDb().mediaPush.findUnique({ where: { id: pushId } });
  if (!push) return { state: "failed", reason: "The creative's push to the ad account was removed" };
  if (push.state === "ready") return { state: "ready" };
  if (push.state === "failed") return { state: "failed", reason: push.failureReason ?? "The push to the ad account failed" };
  return { state: "waiting" };
}

export async function failAdBuild(buildId: string, run: number, reason: string): Promise<void> {
  await getDb().adBuild.updateMany({ where: { id: buildId, run, state: "waiting_for_media" }, data: { state: "failed", error: reason.slice(0, 2000) } });
}

export type BuildOutcome = { state: "built"; adId: string } | { state: "failed"; error: string };

/**
 * Builds the ad of a build whose media is now on the account, as the user who asked for it (who
 * must still be a member of the workspace). Terminal refusals fail the build with the platform's
 * message; retryable ones are thrown so the job's step runs again.
 */
export async function finishAdBuild(buildId: string, run: number): Promise<BuildOutcome> {
  const db = getDb();
  const build = await db.adBuild.findUnique({ where: { id: buildId } });
  if (!build || build.run !== run) return { state: "failed", error: "The build was replaced by a newer request" };
  if (build.state === "built" && build.adId) return { state: "built", adId: build.adId };
  const principal = build.createdById ? await principalForUser(build.createdById, build.workspaceId) : null;
  if (!principal || principal.workspaceId !== build.workspaceId) {
    const error = "The member who asked for this ad is no longer in the workspace; ask for the ad again";
    await failAdBuild(build.id, run, error);
    return { state: "failed", error };
  }
  try {
    const plan = await planAd(principal, {
      adSetId: build.adSetId,
      creativeId: build.creativeId,
      copyVariantId: build.copyVariantId,
      name: build.name,
      callToAction: build.callToAction as CallToAction,
      landingUrl: build.landingUrl,
      leadFormId: build.leadFormId,
      draftId: build.draftId,
    });
    const made = await makeAd(principal, plan, { waitOutRateLimits: true, mediaMustBeThere: true });
    if (!made.ad) throw new PlatformError("upstream_error", "The creative's media is not on the ad account yet", { retryable: true }); // not reached: mediaMustBeThere throws
    await db.adBuild.updateMany({ where: { id: build.id, run }, data: { state: "built", adId: made.ad.id, error: null } });
    if (build.draftId)
      await db.adDraft.updateMany({ where: { id: build.draftId, workspaceId: build.workspaceId }, data: { adId: made.ad.id, adSetId: build.adSetId } });
    return { state: "built", adId: made.ad.id };
  } catch (err) {
    if (!isAppError(err) || (err instanceof PlatformError && err.retryable)) throw err;
    await failAdBuild(build.id, run, err.message);
    return { state: "failed", error: err.message };
  }
}
