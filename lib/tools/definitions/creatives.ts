import { z } from "zod";
import { CreativeSchema, toCreative } from "@/lib/creatives/creative-schema";
import { DELETE_CREATIVES_MAX, deleteCreatives } from "@/lib/creatives/delete-creatives";
import { getCreative, listCreatives } from "@/lib/creatives/list-creatives";
import { MOVE_CREATIVES_MAX, moveCreatives } from "@/lib/creatives/move-creatives";
import { CreativeFilterFields, hasFilters, searchCreativeRows } from "@/lib/creatives/search-creatives";
import { notFound } from "@/lib/errors";
import { defineTool } from "../types";
import { idArg, pageArgs } from "./shared";

export const creativeTools = [
  defineTool({
    name: "list_creatives",
    title: "List creatives",
    description:
      "Lists the creatives in the library, newest first, with status, size, media paths and copy count. Optional filters (search in the file name, kind, aspect, date range, uploader, folder, status) and sort (newest, oldest, name) run in the database. Paginated: pass nextCursor back as cursor, with the same filters and sort.",
    category: "creatives",
    capability: "creatives.list",
    readOnly: true,
    destructive: false,
    input: z.strictObject({ ...pageArgs({ defaultLimit: 100, maxLimit: 200 }), ...CreativeFilterFields }),
    output: z.object({ creatives: z.array(CreativeSchema), nextCursor: z.string().nullable().describe("Null on the last page") }),
    handler: async (principal, { limit, cursor, ...filters }) => {
      if (!hasFilters(filters)) return listCreatives(principal, { limit, cursor });
      const { rows, nextCursor } = await searchCreativeRows(principal, { ...filters, limit, cursor });
      return { creatives: rows.map(toCreative), nextCursor };
    },
    rest: {
      method: "GET",
      path: "/api/v1/creatives",
      operationId: "listCreatives",
      summary: "List creatives, newest first",
      description:
        "Folder-scoped members see only their folders' creatives. `cursor`/`limit` and `nextCursor` page through the library. " +
        "The optional filters and sort of the `list_creatives` tool apply here too.",
      tag: "Creatives",
      status: 200,
      successDescription: "A page of creatives",
    },
  }),
  defineTool({
    name: "get_creative",
    title: "Get creative",
    description: "One creative of the library by id.",
    category: "creatives",
    capability: "creatives.list",
    readOnly: true,
    destructive: false,
    input: z.strictObject({ id: idArg("Creative") }),
    output: z.object({ creative: CreativeSchema }),
    handler: async (principal, input) => {
      const creative = await getCreative(principal, input.id);
      if (!creative) throw notFound("Creative");
      return { creative };
    },
  }),
  defineTool({
    name: "delete_creatives",
    title: "Delete creatives",
    description: `Deletes 1 to ${DELETE_CREATIVES_MAX} creatives with their copy variants and media files; cannot be undone. Unknown or invisible ids are skipped; deleted says how many went.`,
    category: "creatives",
    capability: "creatives.delete",
    readOnly: false,
    destructive: true,
    input: z.strictObject({
      ids: z
        .array(idArg("Creative"))
        .min(1, "must hold at least 1 id")
        .max(DELETE_CREATIVES_MAX, `must hold at most ${DELETE_CREATIVES_MAX} ids`)
        .describe(`1 to ${DELETE_CREATIVES_MAX} creative ids`),
    }),
    output: z.object({ deleted: z.number().int() }),
    handler: deleteCreatives,
    rest: {
      method: "DELETE",
      path: "/api/v1/creatives",
      operationId: "deleteCreatives",
      summary: "Delete creatives",
      description: "Deletes the creatives with their copy variants and media files. Ids that do not exist or are not visible are skipped.",
      tag: "Creatives",
      status: 200,
      successDescription: "How many were deleted",
    },
  }),
  defineTool({
    name: "move_creatives",
    title: "Move creatives",
    description: `Files 1 to ${MOVE_CREATIVES_MAX} creatives into a library folder (folderId null: the library root). Unknown or invisible ids are skipped; moved says how many moved. An unknown folder is 404.`,
    category: "creatives",
    capability: "creatives.move",
    readOnly: false,
    destructive: false,
    input: z.strictObject({
      ids: z.array(idArg("Creative")).min(1).max(MOVE_CREATIVES_MAX).describe(`1 to ${MOVE_CREATIVES_MAX} creative ids`),
      folderId: idArg("Folder").nullable().describe("The folder to move them into; null for the library root"),
    }),
    output: z.object({ moved: z.number().int() }),
    handler: moveCreatives,
  }),
];
