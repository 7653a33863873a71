import { createHash } from "node:crypto";
import { hash32, seededRandom } from "@/lib/random/seeded";

/** The sandbox decides everything from seeds (see lib/random/seeded.ts). */
export { hash32, seededRandom };

/** A numeric-string id derived from the text, like the platforms' object ids (no leading zero). */
export function numericIdFrom(text: string, digits: number): string {
  const hex = createHash("sha256").update(text).digest("hex");
  let out = String((parseInt(hex.slice(0, 2), 16) % 9) + 1);
  for (let i = 2; out.length < digits; i += 2) out += String(parseInt(hex.slice(i, i + 2), 16) % 10);
  return out;
}
