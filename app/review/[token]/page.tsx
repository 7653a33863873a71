import type { Metadata } from "next";
import { cookies } from "next/headers";
import { notFound } from "next/navigation";
import { preload } from "react-dom";
import { isAppError } from "@/lib/errors";
import { guestView, hasAccess, openLink } from "@/lib/read-models/guest-review";
import { guestPassCookie } from "@/lib/read-models/guest-review";
import { recordLinkView } from "@/lib/read-models/guest-review";
import { GuestReview } from "./guest-review";
import { PasswordForm } from "./password-form";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Review", robots: { index: false, follow: false }, referrer: "no-referrer" };

/** The guest page of a review link: no account; unusable tokens all end in the same not-found page. */
export default async function ReviewLinkPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  let link;
  try {
    link = await openLink(token);
  } catch (err) {
    if (isAppError(err) && err.code === "rate_limited") return <Plain title="Too many requests" text="Please wait a minute and reload this page." />;
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
  const view = await guestView(token, link);
  // The first pictures are the largest content: fetch them while the styles and scripts load.
  for (const c of view.creatives.slice(0, 2)) if (c.kind === "image") preload(c.mediaUrl, { as: "image", fetchPriority: "high" });
  // Not awaited: the guest's page never waits for the event.
  void recordLinkView(link).catch((err: unknown) => console.error("[review] link view not recorded", err));
  return <GuestReview token={token} view={view} />;
}

function Plain({ title, text }: { title: string; text: string }) {
  return (
    <main className="mx-auto max-w-sm px-4 py-16 text-center">
      <h1 className="text-xl font-semibold text-slate-900">{title}</h1>
      <p className="mt-2 text-sm text-slate-600">{text}</p>
    </main>
  );
}
