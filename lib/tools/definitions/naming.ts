import { z } from "zod";
import { getNamingConvention, NAMING_LIMITS, setNamingConvention } from "@/lib/creatives/naming";
import { defineTool } from "../types";

const NamingConventionSchema = z.object({
  pattern: z.string().nullable().describe("The file-name pattern, e.g. {concept}_{hook}_{aspect}; null when none is set"),
  fields: z.array(z.string()).describe("The pattern's fields, in order"),
});

export const namingTools = [
  defineTool({
    name: "get_naming_convention",
    title: "Get naming convention",
    description:
      "The workspace's file-name pattern (e.g. {concept}_{hook}_{aspect}): new creatives get labels parsed from their file names by it (the creative's labels).",
    category: "creatives",
    capability: "naming.read",
    readOnly: true,
    destructive: false,
    input: z.strictObject({}),
    output: z.object({ namingConvention: NamingConventionSchema }),
    handler: getNamingConvention,
  }),
  defineTool({
    name: "set_naming_convention",
    title: "Set naming convention",
    description:
      "Sets the workspace's file-name pattern: {field} placeholders separated by text, e.g. {concept}_{hook}_{aspect}. Files uploaded or imported from now on are parsed " +
      "(extension aside) into labels stored on their creatives; {aspect} matches a ratio such as 9x16, 4x5, 1x1 (9:16 is read as 9x16), and creatives whose labels differ " +
      "only in aspect are one concept (build_ads_from_library with byConcept makes one ad per concept). A name that does not fit gets no labels. pattern null clears it. " +
      "Pass example to see how a file name would be parsed.",
    category: "creatives",
    capability: "naming.write",
    readOnly: false,
    destructive: false,
    input: z.strictObject({
      pattern: z.string().max(NAMING_LIMITS.maxPatternLength).nullable().describe("e.g. {concept}_{hook}_{aspect}; null or empty to clear"),
      example: z.string().max(255).optional().describe("A file name to parse with the new pattern, e.g. spring_hookA_9x16.mp4"),
    }),
    output: z.object({
      namingConvention: NamingConventionSchema,
      example: z
        .object({ fileName: z.string(), labels: z.record(z.string(), z.string()).nullable().describe("null: the name does not fit the pattern") })
        .nullable(),
    }),
    handler: setNamingConvention,
  }),
];
