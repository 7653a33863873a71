import { z } from "zod";
import type { CopyVariant } from "@/lib/generated/prisma/client";

/** Counts characters as people do (code points), so an emoji is one character, not two. */
const text = (max: number, what: string) =>
  z
    .string()
    .refine((s) => [...s].length <= max, `${what} must be at most ${max} characters`)
    .meta({ maxLength: max })
    .nullable()
    .optional()
    .describe(`${what}, up to ${max} characters; null clears it`);

/** Text fields of a copy variant; all optional on write, so a variant can hold a single headline. */
export const COPY_TEXT_LIMITS = { headline: 500, primaryText: 5000, description: 1000, label: 100 } as const;

export const CopyInputSchema = z.object({
  id: z.string().min(1).max(100).optional().describe("Update this existing variant instead of creating one"),
  headline: text(COPY_TEXT_LIMITS.headline, "headline"),
  primaryText: text(COPY_TEXT_LIMITS.primaryText, "primaryText"),
  description: text(COPY_TEXT_LIMITS.description, "description"),
  label: text(COPY_TEXT_LIMITS.label, "label").describe("Caller's own tag, up to 100 characters"),
});
export type CopyInput = z.infer<typeof CopyInputSchema>;

/** The spec's Copy variant resource. */
export const CopySchema = z
  .object({
    id: z.string().describe("Copy variant id"),
    headline: z.string().nullable(),
    primaryText: z.string().nullable(),
    description: z.string().nullable(),
    label: z.string().nullable().describe("Caller's own tag"),
    createdAt: z.string().describe("Creation time (ISO 8601, UTC)"),
  })
  .meta({ id: "Copy" });
export type Copy = z.infer<typeof CopySchema>;

export function toCopy(row: CopyVariant): Copy {
  return {
    id: row.id,
    headline: row.headline,
    primaryText: row.primaryText,
    description: row.description,
    label: row.label,
    createdAt: row.createdAt.toISOString(),
  };
}
