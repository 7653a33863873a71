import { z } from "zod";
import { guestDecision } from "@/lib/review/guest";
import { GuestIdentitySchema, guestRoute, json } from "@/lib/http/review-guest/guest-http";
import { DECISIONS } from "@/lib/review/schemas";

export const dynamic = "force-dynamic";

const Body = z.strictObject({
  creativeId: z.string().min(1).max(100),
  ...GuestIdentitySchema,
  decision: z.enum(DECISIONS),
  note: z.string().trim().max(2000).nullable().optional(),
});

/** A guest approves or requests changes (when the link allows decisions). */
export const POST = guestRoute({ body: Body }, async ({ token, link, body }) =>
  json({
    creative: await guestDecision(token, link, {
      creativeId: body.creativeId,
      who: { name: body.name, email: body.email },
      decision: body.decision,
      note: body.note,
    }),
  }),
);
