import Link from "next/link";
import type { ReactNode } from "react";
import { buttonClass } from "@/components/ui/button";
import { Alert } from "@/components/ui/misc";

/** The one way on from a sign-in, reset or confirmation card: a centred text link under its content. */
export function CardLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <Link href={href} className="block text-center text-sm font-medium text-indigo-700 underline-offset-2 hover:underline">
      {children}
    </Link>
  );
}

/** A form's success: what happened, and where to go next. */
export function DoneNotice({ children, href, next }: { children: ReactNode; href: string; next: string }) {
  return (
    <div className="space-y-4">
      <Alert tone="green">{children}</Alert>
      <CardLink href={href}>{next}</CardLink>
    </div>
  );
}

/** A link meant for another account than the signed-in one: why, and a button to sign out and open it again. */
export function SignOutToSwitch({ children, signOut }: { children: ReactNode; signOut: () => Promise<void> }) {
  return (
    <div className="space-y-3 text-sm text-slate-700">
      <p>{children}</p>
      <form action={signOut}>
        <button type="submit" className={`${buttonClass("secondary")} w-full`}>
          Sign out
        </button>
      </form>
    </div>
  );
}
