import { getConfig } from "@/lib/services";

export interface BodyDeadlines {
  /** Longest silence between two pieces of the body. */
  idleMs: number;
  /** The whole body; null leaves it to the server's request timeout. */
  totalMs: number | null;
}

/** JSON bodies: at most 1 MB, so a short total deadline. */
export function jsonBodyDeadlines(): BodyDeadlines {
  const { bodyIdleTimeoutMs, jsonBodyTimeoutMs } = getConfig().http;
  return { idleMs: bodyIdleTimeoutMs, totalMs: jsonBodyTimeoutMs };
}

/** Streamed uploads: up to gigabytes, so only the idle deadline and the server's request timeout. */
export function streamedBodyDeadlines(): BodyDeadlines {
  const { bodyIdleTimeoutMs, requestTimeoutMs } = getConfig().http;
  return { idleMs: bodyIdleTimeoutMs, totalMs: requestTimeoutMs };
}

/**
 * Watches a body as it is read: `touch()` on every chunk; `onExpire` runs once, with the
 * message to answer, when the body goes silent for too long or takes too long in all.
 */
export class BodyDeadline {
  private idleTimer: NodeJS.Timeout;
  private totalTimer: NodeJS.Timeout | null;

  constructor(deadlines: BodyDeadlines, onExpire: (message: string) => void) {
    let expired = false;
    const expire = (message: string) => {
      if (expired) return;
      expired = true;
      this.stop();
      onExpire(message);
    };
    this.idleTimer = setTimeout(() => expire(`Request body timed out: nothing arrived for ${seconds(deadlines.idleMs)}`), deadlines.idleMs);
    this.totalTimer =
      deadlines.totalMs === null
        ? null
        : setTimeout(() => expire(`Request body timed out: not complete after ${seconds(deadlines.totalMs!)}`), deadlines.totalMs);
  }

  touch(): void {
    this.idleTimer.refresh();
  }

  stop(): void {
    clearTimeout(this.idleTimer);
    if (this.totalTimer) clearTimeout(this.totalTimer);
  }
}

const seconds = (ms: number) => (ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`);
