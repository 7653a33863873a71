/** 2.5 -> "0:02.50": minutes, seconds and hundredths (frame-accurate enough to read, exact in data). */
export function formatTimeCode(seconds: number): string {
  const m = Math.floor(seconds / 60);
  const s = seconds - m * 60;
  return `${m}:${s.toFixed(2).padStart(5, "0")}`;
}

/** A time code as stored: the player's time, rounded to the millisecond. */
export const toTimeSeconds = (t: number) => Math.round(t * 1000) / 1000;
