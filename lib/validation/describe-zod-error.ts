import type { ZodError } from "zod";

/** "ids: Too small..." — zod issues as one readable line. */
export function describeZodError(error: ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((i) => (i.path.length ? `${i.path.join(".")}: ${i.message}` : i.message))
    .join("; ");
}
