import { z } from "zod";
import { guestComment } from "@/lib/review/guest";
import { GuestIdentitySchema, guestRoute, json } from "@/lib/http/review-guest/guest-http";
import { CommentBodySchema, PinSchema, TimeSecondsSchema } from "@/lib/review/schemas";

export const dynamic = "force-dynamic";

const Body = z.strictObject({
  creativeId: z.string().min(1).max(100),
  ...GuestIdentitySchema,
  body: CommentBodySchema,
  parentId: z.string().min(1).max(100).nullable().optional(),
  timeSeconds: TimeSecondsSchema.nullable().optional(),
  pin: PinSchema.nullable().optional(),
});

/** A guest's comment or reply on one of the link's creatives (when the link allows comments). */
export const POST = guestRoute({ body: Body }, async ({ token, link, body }) =>
  json({ creative: await guestComment(token, link, { ...body, who: { name: body.name, email: body.email } }) }, 201),
);
