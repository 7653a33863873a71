import { z } from "zod";
import { CopyInputSchema, CopySchema } from "@/lib/copy/copy-schema";
import { deleteCopy, listCopies, saveCopy } from "@/lib/copy/copy-variants";
import { defineOperation } from "@/lib/http/operation";
import { pageQuery } from "@/lib/http/pagination";

const CreativeParams = z.object({ id: z.string().min(1).max(100).describe("Creative id") });

export const listCopiesOperation = defineOperation({
  method: "GET",
  path: "/api/v1/creatives/{id}/copy",
  operationId: "listCopies",
  summary: "List a creative's copy variants, newest first",
  tag: "Copy variants",
  capability: "copy.list",
  allowSession: true,
  params: CreativeParams,
  query: pageQuery({ defaultLimit: 100, maxLimit: 200 }),
  success: {
    status: 200,
    description: "A page of copy variants",
    schema: z.object({ copies: z.array(CopySchema), nextCursor: z.string().nullable().describe("Null on the last page") }),
  },
  errors: ["not_found"],
  handler: async ({ principal, params, query }) => ({ status: 200, body: await listCopies(principal, { creativeId: params.id, ...query }) }),
});

export const saveCopyOperation = defineOperation({
  method: "POST",
  path: "/api/v1/creatives/{id}/copy",
  operationId: "saveCopy",
  summary: "Create a copy variant, or update one by id",
  description: "Without `id` creates a variant (201). With `id` updates that variant (200): fields left out stay, null clears.",
  tag: "Copy variants",
  capability: "copy.write",
  allowSession: true,
  params: CreativeParams,
  body: CopyInputSchema.optional(),
  success: { status: 201, description: "Created (201) or updated (200)", schema: z.object({ id: z.string() }) },
  errors: ["not_found"],
  handler: async ({ principal, params, body }) => {
    const { id, created } = await saveCopy(principal, { ...(body ?? {}), creativeId: params.id });
    return { status: created ? 201 : 200, body: { id } };
  },
});

export const deleteCopyOperation = defineOperation({
  method: "DELETE",
  path: "/api/v1/creatives/{id}/copy",
  operationId: "deleteCopy",
  summary: "Delete a copy variant",
  tag: "Copy variants",
  capability: "copy.delete",
  allowSession: true,
  params: CreativeParams,
  body: z.object({ id: z.string({ error: "id is required" }).min(1, "id is required").max(100).describe("Copy variant id") }),
  success: { status: 200, description: "Deleted", schema: z.object({ ok: z.literal(true) }) },
  errors: ["not_found"],
  handler: async ({ principal, params, body }) => ({ status: 200, body: await deleteCopy(principal, { creativeId: params.id, id: body.id }) }),
});
