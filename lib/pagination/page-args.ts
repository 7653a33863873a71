import { z } from "zod";

/**
 * The page arguments every list takes: `limit` and the previous page's `cursor`. A query string
 * carries numbers as text (`fromQueryString` coerces them); JSON arguments (tools) must be numbers.
 */
export const pageFields = (options: { defaultLimit: number; maxLimit: number }, fromQueryString: boolean) => ({
  limit: (fromQueryString ? z.coerce.number() : z.number())
    .int()
    .min(1)
    .max(options.maxLimit)
    .default(options.defaultLimit)
    .describe(`Items per page, 1 to ${options.maxLimit} (default ${options.defaultLimit})`),
  cursor: z.string().min(1).optional().describe("The nextCursor of the previous page"),
});

/** Query parameters shared by list endpoints. */
export const pageQuery = (options: { defaultLimit: number; maxLimit: number }) => z.object(pageFields(options, true));
