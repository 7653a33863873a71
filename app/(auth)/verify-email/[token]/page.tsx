import type { Metadata } from "next";
import Link from "next/link";
import { signOutAction } from "@/app/(auth)/actions";
import { CardLink, SignOutToSwitch } from "@/components/auth/auth-card";
import { buttonClass } from "@/components/ui/button";
import { emailVerificationStatus, findEmailVerification, VERIFY_TTL_HOURS } from "@/lib/dashboard/account";
import { currentUserId } from "@/lib/dashboard/current";
import { ConfirmEmailForm } from "./confirm-email-form";

export const metadata: Metadata = { title: "Confirm your email address" };
export const dynamic = "force-dynamic";

/**
 * The link mailed to confirm an address. Opening it changes nothing (mail scanners open links too): the account's
 * holder, signed in, confirms with the button, so the link alone (the address's owner, mailed about an account someone
 * else made with it) confirms nothing (lib/session/email-verification.ts).
 */
export default async function VerifyEmailPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const [link, userId] = await Promise.all([findEmailVerification(token), currentUserId()]);
  const user = userId ? await emailVerificationStatus(userId) : null;
  if (user?.verified && (!link || link.userId === userId))
    return (
      <>
        <h1 className="mb-2 text-xl font-semibold text-slate-900">Your email address is confirmed</h1>
        <p className="mb-6 text-sm text-slate-600">{user.email} is confirmed; there is nothing more to do.</p>
        <Link href="/dashboard/library" className={`${buttonClass()} w-full`}>
          Continue to Adloom
        </Link>
      </>
    );
  if (!link)
    return (
      <>
        <h1 className="mb-2 text-xl font-semibold text-slate-900">This link cannot be used</h1>
        <p className="mb-6 text-sm text-slate-600">
          Confirmation links work once, for {VERIFY_TTL_HOURS} hours, and a newer one replaces them. The dashboard sends a new one.
        </p>
        <CardLink href={user ? "/dashboard/library" : "/sign-in"}>{user ? "Go to the dashboard" : "Sign in"}</CardLink>
      </>
    );
  return (
    <>
      <h1 className="mb-2 text-xl font-semibold text-slate-900">Confirm your email address</h1>
      {!user && (
        <>
          <p className="mb-6 text-sm text-slate-600">
            Sign in to the Adloom account of <strong>{link.email}</strong> to confirm the address: the link works only for the account it was sent to.
          </p>
          <Link href={`/sign-in?callbackUrl=${encodeURIComponent(`/verify-email/${token}`)}`} className={`${buttonClass()} w-full`}>
            Sign in to confirm
          </Link>
          <p className="mt-6 text-sm text-slate-600">
            Did not create that account? Do not confirm it. To take it over,{" "}
            <Link href="/forgot-password" className="font-medium text-indigo-700 underline">
              reset its password
            </Link>
            : that ends every session of whoever made it.
          </p>
        </>
      )}
      {user && link.userId !== userId && (
        <SignOutToSwitch signOut={signOutAction}>
          This link confirms the address of another account, {link.email}. You are signed in as {user.email}: sign out, then open the link again and sign in as{" "}
          {link.email}.
        </SignOutToSwitch>
      )}
      {user && link.userId === userId && (
        <>
          <p className="mb-6 text-sm text-slate-600">
            Confirm that <strong>{link.email}</strong> is your address.
          </p>
          <ConfirmEmailForm token={token} />
        </>
      )}
    </>
  );
}
