import { NonRetriableError } from "inngest";
import { z } from "zod";
import { inngest } from "@/inngest/client";
import { AD_BUILD_REQUESTED_EVENT, buildForRun, failAdBuild, finishAdBuild, pushStateOf, type BuildOutcome } from "@/lib/ads/ad-builds";
import { failPush, MEDIA_PUSH_SETTLED_EVENT, PROCESSING_POLL_SECONDS, transferOnce } from "@/lib/media-push/transfer";
import { runMediaTransfer } from "./media-transfer-steps";

const RequestedData = z.object({ buildId: z.string().min(1), workspaceId: z.string().min(1), run: z.number().int().positive() });

/**
 * Waits between looks at a push another job runs: the processing backoff, then every minute (~1 h in all).
 * Each wait ends early when the push settles (MEDIA_PUSH_SETTLED_EVENT).
 */
const FOREIGN_PUSH_WAITS = [...PROCESSING_POLL_SECONDS, ...Array.from<number>({ length: 45 }).fill(60)];

/**
 * Builds an ad whose creative was not yet on the ad account (create_ad, build_ads_from_library,
 * launch_ad_draft with a large video): sends the media in this job (the push's recorded,
 * idempotent chunks, each attempt a step, durable sleeps between them and while the platform
 * processes), or, when another job already runs that push, waits for it with durable sleeps;
 * then builds the ad (same clientRef as the call: a repeat finds it). Never holds a request.
 */
export const adBuild = inngest.createFunction(
  {
    id: "ad-build",
    name: "Build an ad once its creative reaches the ad account",
    triggers: [{ event: AD_BUILD_REQUESTED_EVENT }],
    retries: 3,
    onFailure: async ({ event, error }) => {
      const parsed = RequestedData.safeParse(event.data.event.data);
      if (!parsed.success) return;
      const build = await buildForRun(parsed.data.buildId, parsed.data.run);
      if (build?.ownsPush) await failPush(build.pushId, build.pushJobRun, `The ad-build job stopped unexpectedly: ${error.message}`);
      await failAdBuild(parsed.data.buildId, parsed.data.run, `The ad-build job stopped unexpectedly: ${error.message}`);
    },
  },
  async ({ event, step }) => {
    const data = RequestedData.safeParse(event.data);
    if (!data.success) throw new NonRetriableError(`Malformed ${AD_BUILD_REQUESTED_EVENT} event: ${data.error.message}`);
    const { buildId, run } = data.data;
    const build = await step.run("load-build", () => buildForRun(buildId, run));
    if (build?.state !== "waiting_for_media") return { buildId, run, state: "skipped" };

    const media = build.ownsPush
      ? await runMediaTransfer(step, (attempt) => transferOnce(build.pushId, { jobRun: build.pushJobRun, attempt }), build.pushJobRun)
      : await waitForForeignPush(step, build.pushId);
    if (!media.ok) {
      const reason = "stale" in media ? "The creative's push to the ad account was restarted; ask for the ad again" : media.message;
      await step.run("mark-push-failed", async () => {
        if (build.ownsPush) await failPush(build.pushId, build.pushJobRun, reason);
        await failAdBuild(buildId, run, `The creative could not be sent to the ad account: ${reason}`);
      });
      return { buildId, run, state: "failed", error: reason };
    }
    const outcome = (await step.run("build-ad", () => finishAdBuild(buildId, run))) as BuildOutcome;
    return { buildId, run, ...outcome };
  },
);

interface Steps {
  run<T>(id: string, fn: () => Promise<T>): Promise<unknown>;
  waitForEvent(id: string, options: { event: string; timeout: string; if: string }): Promise<unknown>;
}

async function waitForForeignPush(step: Steps, pushId: string): Promise<{ ok: true } | { ok: false; message: string }> {
  for (let check = 0; check <= FOREIGN_PUSH_WAITS.length; check++) {
    // Woken by the push's settling, or at the end of the wait (an event sent before the wait began is not seen:
    // the check after it finds the push settled). A wait that times out resolves to null, as the sleeps this
    // replaced did, so a build that was sleeping under the same step id carries on.
    if (check > 0)
      await step.waitForEvent(`wait-for-push-${check}`, {
        event: MEDIA_PUSH_SETTLED_EVENT,
        timeout: `${FOREIGN_PUSH_WAITS[check - 1]}s`,
        if: `async.data.pushId == ${JSON.stringify(pushId)}`,
      });
    const push = (await step.run(`push-check-${check}`, () => pushStateOf(pushId))) as Awaited<ReturnType<typeof pushStateOf>>;
    if (push.state === "ready") return { ok: true };
    if (push.state === "failed") return { ok: false, message: push.reason };
  }
  return { ok: false, message: "The push to the ad account did not finish within an hour" };
}
