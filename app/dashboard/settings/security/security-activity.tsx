import { formatDateTime, type MemberClock } from "@/components/dashboard/format";
import { Card, Section } from "@/components/ui/misc";
import { revokedAccessInWords, type SecurityEventView } from "@/lib/dashboard/account";

const SIGN_IN_METHODS: Record<string, string> = {
  password: "with password",
  password_totp: "with password and authenticator code",
  password_recovery_code: "with password and a recovery code",
  google: "with Google",
  github: "with GitHub",
};

const KINDS: Record<string, string> = {
  signed_in: "Signed in",
  password_changed: "Password changed",
  password_reset: "Password reset by email",
  password_set_by_operator: "Password set by an Adloom operator",
  two_factor_on: "Two-factor authentication turned on",
  two_factor_off: "Two-factor authentication turned off",
  recovery_code_used: "Recovery code used",
  sessions_ended: "Signed out everywhere",
  email_confirmed: "Email address confirmed",
};

/** What happened, in words ("Signed in with password and authenticator code"). */
export function describeSecurityEvent(event: SecurityEventView): string {
  const kind = KINDS[event.kind] ?? event.kind;
  if (event.kind === "signed_in" && event.method) return `${kind} ${SIGN_IN_METHODS[event.method] ?? `with ${event.method}`}`;
  if (event.kind === "two_factor_off" && event.actor === "operator") return `${kind} by an Adloom operator`;
  if (event.revoked) return `${kind}; revoked what was made before the address was confirmed: ${revokedAccessInWords(event.revoked)}`;
  return kind;
}

/** The account's recent security activity, newest first: what, when, and from which address and browser. */
export function SecurityActivity({ events, clock }: { events: SecurityEventView[]; clock: MemberClock }) {
  return (
    <Card className="max-w-2xl p-6">
      <Section id="activity" title="Recent security activity">
        <p className="text-sm text-slate-600">
          Your latest sign-ins and changes to your account's security (up to 20, from the last 90 days), newest first. Something you do not recognise? Change
          your password, then sign out everywhere.
        </p>
        {events.length === 0 ? (
          <p className="mt-3 text-sm text-slate-600">Nothing recorded yet.</p>
        ) : (
          <ul data-testid="security-activity" className="mt-3 divide-y divide-slate-100">
            {events.map((event) => (
              <li key={event.id} className="py-2.5">
                <p className="text-sm font-medium text-slate-900">{describeSecurityEvent(event)}</p>
                <p className="mt-0.5 break-words text-sm text-slate-600">
                  <time dateTime={event.at}>{formatDateTime(event.at, clock)}</time>
                  {" · "}
                  {event.actor === "operator"
                    ? "by an operator, not from a browser"
                    : [event.address ?? "unknown address", event.browser].filter(Boolean).join(" · ")}
                </p>
              </li>
            ))}
          </ul>
        )}
      </Section>
    </Card>
  );
}
