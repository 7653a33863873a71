import { getConfig } from "@/lib/services";
import { checkProcessing, PROCESSING_POLL_SECONDS, type ProcessingOutcome, type TransferOutcome } from "@/lib/media-push/transfer";

/** Inngest sleeps are whole seconds; a configured delay never rounds down to no wait at all. */
export const asSleep = (ms: number) => `${Math.max(1, Math.ceil(ms / 1000))}s`;

interface Steps {
  run<T>(id: string, fn: () => Promise<T>): Promise<unknown>;
  sleep(id: string, duration: string): Promise<unknown>;
}

export type MediaTransferResult = { ok: true; externalId: string } | { ok: false; message: string } | { ok: false; stale: true };

/**
 * The steps of one media push, shared by the upload job and the media-push job: transfer attempts
 * (each its own memoized step, durable sleeps of PLATFORM_RETRY_DELAYS_MS between them, or the wait a
 * rate-limiting platform asked for when longer; a chunked
 * transfer resumes from its recorded chunks), then, while the platform is processing, checks with
 * backoff (step.sleep, never a held request) until it is ready or fails with the platform's reason.
 */
export async function runMediaTransfer(step: Steps, attemptOnce: (attempt: number) => Promise<TransferOutcome>, jobRun: number): Promise<MediaTransferResult> {
  const delays = getConfig().platforms.retryDelaysMs;
  const attempts = delays.length + 1;
  let outcome: TransferOutcome | undefined;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    outcome = (await step.run(`push-attempt-${attempt}`, () => attemptOnce(attempt))) as TransferOutcome;
    if (outcome.ok || "stale" in outcome || !outcome.retryable || attempt === attempts) break;
    // A rate-limiting platform's own wait wins over the configured backoff when it is longer.
    const wait = Math.max(delays[attempt - 1]!, (outcome.retryAfterSeconds ?? 0) * 1000);
    await step.sleep(`wait-before-attempt-${attempt + 1}`, asSleep(wait));
  }
  if (!outcome || (!outcome.ok && "stale" in outcome)) return { ok: false, stale: true };
  if (!outcome.ok) return { ok: false, message: `${outcome.message}${outcome.retryable ? ` (gave up after ${attempts} attempts)` : ""}` };
  if (outcome.state === "ready") return { ok: true, externalId: outcome.externalId };

  const pushId = outcome.pushId;
  if (!pushId) return { ok: true, externalId: outcome.externalId };
  for (let check = 0; check <= PROCESSING_POLL_SECONDS.length; check++) {
    if (check > 0) await step.sleep(`wait-for-processing-${check}`, `${PROCESSING_POLL_SECONDS[check - 1]}s`);
    const status = (await step.run(`processing-check-${check}`, () => checkProcessing(pushId, jobRun))) as ProcessingOutcome;
    if (status.state === "ready") return { ok: true, externalId: status.externalId };
    if (status.state === "failed") return { ok: false, message: status.reason };
    if (status.state === "stale") return { ok: false, stale: true };
  }
  const minutes = Math.round(PROCESSING_POLL_SECONDS.reduce((a, b) => a + b, 0) / 60);
  return { ok: false, message: `The platform was still processing the media after ${minutes} minutes` };
}
