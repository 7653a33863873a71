import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { buttonClass } from "@/components/ui/button";
import { signInProviders } from "@/lib/dashboard/account";
import { currentUserId } from "@/lib/dashboard/current";
import { signInWithProvider } from "../actions";
import { SignInForm } from "./sign-in-form";

export const metadata: Metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

const NOTICES: Record<string, string> = {
  oauth_two_factor: "Your account uses two-factor authentication: sign in with your email, password and code.",
  oauth_email: "Your provider did not share a verified email address.",
  oauth_unverified:
    "An Adloom account with this address exists, but its address was never confirmed, so Google and GitHub cannot open it. If it is yours, sign in with its password and open the confirmation link we emailed. If you did not make it, or forgot its password, choose “Forgot your password?”: the link we email sets a new password and ends every session of whoever made it.",
  OAuthAccountNotLinked: "Sign in with the method you used before.",
  password_changed: "Your password is changed, and every session signed in with the old one has ended: sign in with the new password.",
};

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | undefined>> }) {
  const params = await searchParams;
  const callbackUrl = params.callbackUrl?.startsWith("/") && !params.callbackUrl.startsWith("//") ? params.callbackUrl : "/dashboard";
  if (await currentUserId()) redirect(callbackUrl);
  const providers = signInProviders();
  return (
    <>
      <h1 className="mb-6 text-xl font-semibold text-slate-900">Sign in to Adloom</h1>
      <SignInForm callbackUrl={callbackUrl} notice={params.error ? (NOTICES[params.error] ?? "Sign-in did not complete. Please try again.") : undefined} />
      {providers.length > 0 && (
        <div className="mt-6 space-y-2 border-t border-slate-200 pt-6">
          {providers.map((p) => (
            <form key={p.id} action={signInWithProvider}>
              <input type="hidden" name="provider" value={p.id} />
              <input type="hidden" name="callbackUrl" value={callbackUrl} />
              <button type="submit" className={`${buttonClass("secondary")} w-full`}>
                Continue with {p.name}
              </button>
            </form>
          ))}
        </div>
      )}
    </>
  );
}
