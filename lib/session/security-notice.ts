import { getDb } from "@/lib/db/client";
import { log } from "@/lib/log";
import { isPermanentMailFailure, sendMail } from "@/lib/mail/send-mail";
import { getConfig } from "@/lib/services";
import { revokedAccessOf, type SecurityActor, type SecurityEventKind } from "./security-events";
import { revokedAccessInWords } from "./unconfirmed-access";

export interface SecurityNoticeData {
  securityEventId: string;
}

const SUBJECTS: Partial<Record<SecurityEventKind, string>> = {
  password_changed: "Your Adloom password was changed",
  password_reset: "Your Adloom password was reset",
  password_set_by_operator: "Your Adloom password was set by an operator",
  two_factor_off: "Two-factor authentication was turned off for your Adloom account",
};

function whatHappened(kind: SecurityEventKind, actor: SecurityActor, email: string): string {
  switch (kind) {
    case "password_changed":
      return `The password of your Adloom account (${email}) was changed on the Security settings of a signed-in session.`;
    case "password_reset":
      return `The password of your Adloom account (${email}) was reset through a link emailed to this address.`;
    case "password_set_by_operator":
      return `An Adloom operator set a new password for your Adloom account (${email}).`;
    default:
      return actor === "operator"
        ? `An Adloom operator turned two-factor authentication off for your Adloom account (${email}): signing in now needs only the password.`
        : `Two-factor authentication was turned off for your Adloom account (${email}): signing in now needs only the password.`;
  }
}

/** The instant in the user's own time zone and locale (their profile's, else UTC and en-US), with UTC beside it. */
function when(at: Date, user: { timeZone: string | null; locale: string | null }): string {
  const local = new Intl.DateTimeFormat(user.locale ?? "en-US", { dateStyle: "long", timeStyle: "long", timeZone: user.timeZone ?? "UTC" }).format(at);
  return `${local} (${at.toISOString().replace(/\.\d+Z$/, "Z")})`;
}

/**
 * The security notice job's work: emails the account's address what changed (the recorded event), when, from where,
 * and what to do if it was not them: the reset link of /forgot-password, built from PUBLIC_BASE_URL like the reset
 * email's. A mail server that refuses the message for good is not asked again; other failures throw (the job retries).
 * An event purged meanwhile, or its account deleted, sends nothing.
 */
export async function sendSecurityNotice(data: SecurityNoticeData): Promise<"sent" | "outbox" | "gone" | "refused"> {
  const event = await getDb().securityEvent.findUnique({
    where: { id: data.securityEventId },
    include: { user: { select: { email: true, name: true, timeZone: true, locale: true } } },
  });
  const kind = event?.kind as SecurityEventKind | undefined;
  const subject = kind && SUBJECTS[kind];
  if (!event || !kind || !subject) return "gone";
  const actor = event.actor as SecurityActor;
  const base = getConfig().publicBaseUrl;
  const from =
    actor === "operator" ? "an Adloom operator (not from a browser)" : [event.address ?? "an unknown address", event.userAgent].filter(Boolean).join(", ");
  const endedSessions = kind === "two_factor_off" && actor === "user" ? [] : ["Every session of the account signed in before this has ended.", ""];
  const revoked = revokedAccessOf(event);
  const revokedAccess = revoked
    ? [
        `The address had not been confirmed until this reset, so whoever held the old password may not have been you. What was made with the account before, to use it without signing in, is revoked and no longer works: ${revokedAccessInWords(revoked)}. If they were yours, create new API keys (${base}/dashboard/settings/api-keys) and connect your apps again.`,
        "",
      ]
    : [];
  try {
    const { via } = await sendMail({
      to: event.user.email,
      subject,
      text: [
        `Hi ${event.user.name || "there"},`,
        "",
        whatHappened(kind, actor, event.user.email),
        "",
        `When: ${when(event.createdAt, event.user)}`,
        `From: ${from}`,
        "",
        ...endedSessions,
        ...revokedAccess,
        "If this was you, there is nothing to do.",
        "",
        `If it was not you, someone else may have your account. Reset your password now at ${base}/forgot-password: the link it emails you sets a new password and ends every session. Then check the recent activity on the Security page (${base}/dashboard/settings/security) and turn two-factor authentication on.`,
      ].join("\n"),
    });
    return via === "smtp" ? "sent" : "outbox";
  } catch (err) {
    if (isPermanentMailFailure(err)) {
      log.warn("security notice refused by the mail server", { component: "security", userId: event.userId, kind, err });
      return "refused";
    }
    throw err;
  }
}
