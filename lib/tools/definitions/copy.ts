import { z } from "zod";
import { COPY_TEXT_LIMITS, CopyInputSchema, CopySchema } from "@/lib/copy/copy-schema";
import { deleteCopy, listCopies, saveCopy } from "@/lib/copy/copy-variants";
import { defineTool } from "../types";
import { idArg, pageArgs } from "./shared";

// The domain counts characters as code points, as JSON Schema's maxLength does: say so in the schema.
const textFields = {
  headline: CopyInputSchema.shape.headline.meta({ maxLength: COPY_TEXT_LIMITS.headline }),
  primaryText: CopyInputSchema.shape.primaryText.meta({ maxLength: COPY_TEXT_LIMITS.primaryText }),
  description: CopyInputSchema.shape.description.meta({ maxLength: COPY_TEXT_LIMITS.description }),
  label: CopyInputSchema.shape.label.meta({ maxLength: COPY_TEXT_LIMITS.label }),
};

export const copyTools = [
  defineTool({
    name: "list_copy_variants",
    title: "List copy variants",
    description: "Lists a creative's copy variants (ad texts), newest first. Paginated: pass nextCursor back as cursor.",
    category: "copy",
    capability: "copy.list",
    readOnly: true,
    destructive: false,
    input: z.strictObject({ creativeId: idArg("Creative"), ...pageArgs({ defaultLimit: 100, maxLimit: 200 }) }),
    output: z.object({ copies: z.array(CopySchema), nextCursor: z.string().nullable() }),
    handler: listCopies,
  }),
  defineTool({
    name: "create_copy_variant",
    title: "Add copy variant",
    description: "Adds a copy variant (headline, primary text, description, label; all optional) to a creative.",
    category: "copy",
    capability: "copy.write",
    readOnly: false,
    destructive: false,
    input: z.strictObject({ creativeId: idArg("Creative"), ...textFields }),
    output: z.object({ id: z.string(), created: z.boolean() }),
    handler: saveCopy,
  }),
  defineTool({
    name: "update_copy_variant",
    title: "Update copy variant",
    description: "Changes fields of an existing copy variant; fields left out stay, null clears one.",
    category: "copy",
    capability: "copy.write",
    readOnly: false,
    destructive: false,
    input: z.strictObject({ creativeId: idArg("Creative"), id: idArg("Copy variant"), ...textFields }),
    output: z.object({ id: z.string(), created: z.boolean() }),
    handler: saveCopy,
  }),
  defineTool({
    name: "delete_copy_variant",
    title: "Delete copy variant",
    description: "Deletes a copy variant of a creative; cannot be undone.",
    category: "copy",
    capability: "copy.delete",
    readOnly: false,
    destructive: true,
    input: z.strictObject({ creativeId: idArg("Creative"), id: idArg("Copy variant") }),
    output: z.object({ ok: z.literal(true) }),
    handler: deleteCopy,
  }),
];
