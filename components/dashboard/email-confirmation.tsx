"use client";
import { useState, useTransition } from "react";

/**
 * The banner of an account whose address is not confirmed yet (lib/session/email-verification.ts): what to do, and a
 * button that mails a new link. The dashboard works as before meanwhile.
 */
export function EmailConfirmationBanner({ email, resend }: { email: string; resend: () => Promise<{ message: string }> }) {
  const [pending, start] = useTransition();
  const [message, setMessage] = useState("");
  return (
    <aside aria-label="Address confirmation" className="border-b border-amber-200 bg-amber-50 px-4 py-2 text-sm text-amber-900 md:px-8">
      <p>
        Confirm your email address: open the link we emailed to <strong className="break-all">{email}</strong>.{" "}
        <button
          type="button"
          disabled={pending}
          onClick={() => start(async () => setMessage((await resend()).message))}
          className="rounded font-medium underline underline-offset-2 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:opacity-60"
        >
          {pending ? "Emailing…" : "Email me a new link"}
        </button>
      </p>
      <p role="status" className="empty:hidden">
        {message}
      </p>
    </aside>
  );
}
