import { z } from "zod";
import type { ReviewLink } from "@/lib/generated/prisma/client";
import { assertSameOrigin, readCookie } from "@/lib/http/authenticate";
import { parseJsonText, readBodyText } from "@/lib/http/request-body";
import { json, newRequestId, REQUEST_ID_HEADER, toErrorResponse } from "@/lib/http/responses";
import { guestPassCookie } from "@/lib/review/guest-signing";
import { openLink, requireAccess } from "@/lib/review/guest";

export const GuestIdentitySchema = {
  name: z.string().trim().min(1).max(100).describe("The guest's name, shown with their comments and decisions"),
  email: z.string().trim().email().max(200).nullable().optional(),
};

export interface GuestRequest<B> {
  request: Request;
  token: string;
  link: ReviewLink;
  body: B;
}

/**
 * A guest route of a review link (outside /api/v1: no key, no session): same-origin check for
 * writes, the link's rate limit, the one not-found for unusable tokens, the password pass
 * (unless `beforePassword`), a validated JSON body, and the error envelope.
 */
export function guestRoute<B>(options: { body?: z.ZodType<B>; beforePassword?: boolean }, handler: (req: GuestRequest<B>) => Promise<Response>) {
  return async (request: Request, segment: { params: Promise<{ token: string }> }): Promise<Response> => {
    const requestId = newRequestId();
    try {
      const { token } = await segment.params;
      assertSameOrigin(request);
      const link = await openLink(token);
      if (!options.beforePassword) requireAccess(link, readCookie(request, guestPassCookie(link.id)) ?? undefined);
      let body = undefined as B;
      if (options.body) body = options.body.parse(parseJsonText(await readBodyText(request)));
      const response = await handler({ request, token, link, body });
      response.headers.set(REQUEST_ID_HEADER, requestId);
      return response;
    } catch (err) {
      const response = toErrorResponse(err, requestId);
      response.headers.set(REQUEST_ID_HEADER, requestId);
      return response;
    }
  };
}

export { json, readCookie };
