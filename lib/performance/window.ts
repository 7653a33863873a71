/** The rollup's windows, in days of the ad account's time zone (the current day included). */
export const WINDOW_DAYS = 30;
/** Fatigue compares the last RECENT_DAYS with the EARLIER_DAYS before them. */
export const RECENT_DAYS = 3;
export const EARLIER_DAYS = 11;

const DAY_MS = 86_400_000;
export const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
export const daysBetween = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
