import type { Metadata } from "next";
import { cookies } from "next/headers";
import { notFound } from "next/navigation";
import { isAppError } from "@/lib/errors";
import { guestBoard, guestPassCookie, hasAccess, openLink } from "@/lib/read-models/guest-review";
import { PasswordForm } from "../password-form";
import { GuestBoardView } from "./guest-board";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Board review", robots: { index: false, follow: false }, referrer: "no-referrer" };

/** A board shared by a review link, read-only; guests comment on its cards. Unusable tokens end in the same not-found page. */
export default async function SharedBoardPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  let link;
  try {
    link = await openLink(token);
  } catch (err) {
    if (isAppError(err) && err.code === "rate_limited") {
      return (
        <main className="mx-auto max-w-sm px-4 py-16 text-center">
          <h1 className="text-xl font-semibold text-slate-900">Too many requests</h1>
          <p className="mt-2 text-sm text-slate-600">Please wait a minute and reload this page.</p>
        </main>
      );
    }
    notFound();
  }
  if (!hasAccess(link, (await cookies()).get(guestPassCookie(link.id))?.value)) {
    return (
      <main className="mx-auto max-w-sm px-4 py-16">
        <h1 className="text-xl font-semibold text-slate-900">This review link is protected</h1>
        <p className="mt-1 text-sm text-slate-600">Enter the password you were given.</p>
        <PasswordForm token={token} />
      </main>
    );
  }
  let view;
  try {
    view = await guestBoard(token, link);
  } catch (err) {
    if (isAppError(err) && err.code === "not_found") notFound();
    throw err;
  }
  return <GuestBoardView token={token} view={view} />;
}
