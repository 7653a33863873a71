import { z } from "zod";

/** Arguments every list tool takes: a page size and the previous page's cursor. */
export const pageArgs = (options: { defaultLimit: number; maxLimit: number }) => ({
  limit: z
    .number()
    .int()
    .min(1)
    .max(options.maxLimit)
    .default(options.defaultLimit)
    .describe(`Items per page, 1 to ${options.maxLimit} (default ${options.defaultLimit})`),
  cursor: z.string().min(1).optional().describe("The nextCursor of the previous page"),
});

export const idArg = (what: string) => z.string().min(1).max(100).describe(`${what} id`);
