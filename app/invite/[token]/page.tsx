import type { Metadata } from "next";
import Link from "next/link";
import { signOutAction } from "@/app/(auth)/actions";
import { SignOutToSwitch } from "@/components/auth/auth-card";
import { buttonClass } from "@/components/ui/button";
import { isAppError } from "@/lib/errors";
import { currentUserId } from "@/lib/dashboard/current";
import { emailVerificationStatus, getInvite, type InviteDetails } from "@/lib/dashboard/account";
import { AcceptForm, NewAccountForm } from "./forms";

export const metadata: Metadata = { title: "Join a workspace" };
export const dynamic = "force-dynamic";

export default async function InvitePage({
  params,
  searchParams,
}: {
  params: Promise<{ token: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { token } = await params;
  // The emailed link carries a second secret (lib/team/invites.ts): accepting with it confirms the address.
  const mail = (await searchParams).mail;
  const proof = typeof mail === "string" && mail ? mail : null;
  let invite: InviteDetails;
  try {
    invite = await getInvite(token, proof);
  } catch (error) {
    if (!isAppError(error)) throw error;
    return (
      <Shell>
        <h1 className="text-xl font-semibold text-slate-900">This invite cannot be used</h1>
        <p className="mt-2 text-sm text-slate-600">{error.message}.</p>
        <Link href="/sign-in" className={`${buttonClass("secondary")} mt-6 w-full`}>
          Go to sign in
        </Link>
      </Shell>
    );
  }
  const userId = await currentUserId();
  const user = userId ? await emailVerificationStatus(userId) : null;
  const selfPath = `/invite/${token}${proof ? `?mail=${encodeURIComponent(proof)}` : ""}`;
  return (
    <Shell>
      <h1 className="text-xl font-semibold text-slate-900">Join {invite.workspaceName}</h1>
      <p className="mt-2 text-sm text-slate-600">
        {invite.invitedBy} invited <strong>{invite.email}</strong> to join as {invite.role === "admin" || invite.role === "owner" ? "an" : "a"}{" "}
        <strong>{invite.role}</strong>.
      </p>
      <div className="mt-6">
        {user && user.email === invite.email && (user.verified || invite.fromEmail) && <AcceptForm token={token} proof={proof} />}
        {user && user.email === invite.email && !user.verified && !invite.fromEmail && (
          <div className="space-y-3 text-sm text-slate-700">
            <p>
              Your address {user.email} is not confirmed yet. Open this invite from the email sent to it: that link confirms the address. Or confirm it through
              the link we emailed you (the{" "}
              <Link href="/dashboard/library" className="font-medium text-indigo-700 underline">
                dashboard
              </Link>{" "}
              sends a new one), then open this page again.
            </p>
          </div>
        )}
        {user && user.email !== invite.email && (
          <SignOutToSwitch signOut={signOutAction}>
            You are signed in as {user.email}. Sign out, then open this link again to join as {invite.email}.
          </SignOutToSwitch>
        )}
        {!user && invite.accountExists && (
          <div className="space-y-3 text-sm text-slate-700">
            <Link href={`/sign-in?callbackUrl=${encodeURIComponent(selfPath)}`} className={`${buttonClass()} w-full`}>
              Sign in to accept
            </Link>
            {invite.hasPassword && (
              <p>
                Did not make that account, or forgot its password?{" "}
                <Link href="/forgot-password" className="font-medium text-indigo-700 underline">
                  Set a new password
                </Link>{" "}
                through a link we email to {invite.email}; setting it ends every session of the account. Then open this invite again.
              </p>
            )}
            {!invite.hasPassword && (
              <p>
                {invite.email} has an account without a password: sign in with Google or GitHub, or{" "}
                <Link href="/forgot-password" className="font-medium text-indigo-700 underline">
                  set a password
                </Link>{" "}
                through a link we email to that address, then open this invite again.
              </p>
            )}
          </div>
        )}
        {!user && !invite.accountExists && <NewAccountForm token={token} proof={proof} email={invite.email} />}
      </div>
    </Shell>
  );
}

function Shell({ children }: { children: React.ReactNode }) {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center bg-gradient-to-b from-indigo-50 to-slate-50 px-4 py-12">
      <p className="mb-8 flex items-center gap-2 text-xl font-semibold tracking-tight text-slate-900">
        <span aria-hidden className="grid size-8 place-items-center rounded-lg bg-indigo-600 text-base font-bold text-white">
          A
        </span>
        Adloom
      </p>
      <div className="w-full max-w-sm rounded-xl border border-slate-200 bg-white p-8 shadow-sm">{children}</div>
    </main>
  );
}
