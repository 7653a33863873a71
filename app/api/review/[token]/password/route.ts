import { z } from "zod";
import { getConfig } from "@/lib/services";
import { AppError } from "@/lib/errors";
import { checkLinkPassword } from "@/lib/review/guest";
import { guestRoute, json } from "@/lib/http/review-guest/guest-http";
import { guestPassCookie, guestPassValue } from "@/lib/review/guest-signing";

export const dynamic = "force-dynamic";

/** Gives the link's password; the answer sets the link's pass cookie. A wrong password is slow on purpose. */
export const POST = guestRoute({ body: z.object({ password: z.string().max(200) }), beforePassword: true }, async ({ link, body }) => {
  if (!link.passwordHash) return json({ ok: true });
  if (!(await checkLinkPassword(link, body.password))) throw new AppError("unauthorized", "Wrong password");
  const secure = getConfig().publicBaseUrl.startsWith("https:") ? "; Secure" : "";
  return json({ ok: true }, 200, {
    "Set-Cookie": `${guestPassCookie(link.id)}=${guestPassValue(link.id, link.passwordHash)}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${7 * 86_400}${secure}`,
  });
});
