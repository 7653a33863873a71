import { z } from "zod";
import { pageFields } from "@/lib/pagination/page-args";

/** Arguments every list tool takes: a page size and the previous page's cursor. */
export const pageArgs = (options: { defaultLimit: number; maxLimit: number }) => pageFields(options, false);

export const idArg = (what: string) => z.string().min(1).max(100).describe(`${what} id`);
