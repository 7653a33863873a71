import { z } from "zod";
import { CreativeSchema } from "@/lib/creatives/creative-schema";
import { DELETE_CREATIVES_MAX, deleteCreatives } from "@/lib/creatives/delete-creatives";
import { listCreatives } from "@/lib/creatives/list-creatives";
import { defineOperation } from "@/lib/http/operation";
import { pageQuery } from "@/lib/http/pagination";

export const listCreativesOperation = defineOperation({
  method: "GET",
  path: "/api/v1/creatives",
  operationId: "listCreatives",
  summary: "List creatives, newest first",
  description: "Folder-scoped members see only their folders' creatives. `cursor`/`limit` and `nextCursor` page through the library.",
  tag: "Creatives",
  capability: "creatives.list",
  allowSession: true,
  query: pageQuery({ defaultLimit: 100, maxLimit: 200 }),
  success: {
    status: 200,
    description: "A page of creatives",
    schema: z.object({ creatives: z.array(CreativeSchema), nextCursor: z.string().nullable().describe("Null on the last page") }),
  },
  handler: async ({ principal, query }) => ({ status: 200, body: await listCreatives(principal, query) }),
});

export const deleteCreativesOperation = defineOperation({
  method: "DELETE",
  path: "/api/v1/creatives",
  operationId: "deleteCreatives",
  summary: "Delete creatives",
  description: "Deletes the creatives with their copy variants and media files. Ids that do not exist or are not visible are skipped.",
  tag: "Creatives",
  capability: "creatives.delete",
  allowSession: true,
  body: z.object({
    ids: z
      .array(z.string().min(1).max(100))
      .min(1, "must hold at least 1 id")
      .max(DELETE_CREATIVES_MAX, `must hold at most ${DELETE_CREATIVES_MAX} ids`)
      .describe(`1 to ${DELETE_CREATIVES_MAX} creative ids`),
  }),
  success: { status: 200, description: "How many were deleted", schema: z.object({ deleted: z.number().int() }) },
  handler: async ({ principal, body }) => ({ status: 200, body: await deleteCreatives(principal, body) }),
});
