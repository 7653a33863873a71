import { z } from "zod";

/**
 * ISO 8601 dates and times as every API input takes them: zod's formats, from year 0001. A four-digit year
 * admits 0000, which neither the calendar nor PostgreSQL has: such a value reached the database and failed
 * there (a 500, or a CSV export cut off) instead of being refused as input.
 */
const FROM_YEAR_ONE = "must be in year 0001 or later (there is no year 0000)";
const yearOf = (iso: string) => new Date(iso.length === 10 ? `${iso}T00:00:00Z` : iso).getUTCFullYear();

/** YYYY-MM-DD. */
export const isoDate = () => z.iso.date().refine((v) => yearOf(v) >= 1, FROM_YEAR_ONE);

/** A date and time (with `offset: true`, any UTC offset; otherwise Z). */
export const isoDateTime = (options?: { offset?: boolean }) => z.iso.datetime(options).refine((v) => yearOf(v) >= 1, FROM_YEAR_ONE);
