import nodemailer, { type Transporter } from "nodemailer";
import { defineService, getConfig } from "@/lib/services";
import { getDb } from "@/lib/db/client";
import { newId } from "@/lib/ids";

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/** The SMTP transport, made on the first mail sent through SMTP_URL and closed with the other services. */
const smtp = defineService<Transporter>(
  "mail.smtp",
  ({ config }) => nodemailer.createTransport(config.mail.smtpUrl!),
  (transport) => transport.close(),
);

/**
 * Sends an email through SMTP_URL, or, when no SMTP server is configured, stores it in the
 * database outbox (`npm run admin -- mail list`), so every flow that mails works offline.
 * An SMTP failure is thrown: the caller decides whether the action fails with it.
 */
export async function sendMail(mail: Mail): Promise<{ via: "smtp" | "outbox" }> {
  const { smtpUrl, from } = getConfig().mail;
  if (smtpUrl) {
    await smtp().sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text });
    return { via: "smtp" };
  }
  await getDb().outboxMessage.create({ data: { id: newId("msg"), to: mail.to.trim().toLowerCase(), subject: mail.subject, text: mail.text } });
  return { via: "outbox" };
}

/**
 * An SMTP answer in the 5xx range (RFC 5321: a permanent failure, e.g. 550 for a mailbox the server does not
 * have): sending the same message again gets the same answer. Connection failures and 4xx answers are not.
 */
export function isPermanentMailFailure(err: unknown): boolean {
  const code = (err as { responseCode?: unknown } | null)?.responseCode;
  return typeof code === "number" && code >= 500 && code < 600;
}

/** Where mail goes on this server: an SMTP server, or (none configured) the database outbox. */
export function mailTransport(): "smtp" | "outbox" {
  return getConfig().mail.smtpUrl ? "smtp" : "outbox";
}

/** One line for the start-up log: where mail goes. */
export function describeMailTransport(): string {
  const { smtpUrl } = getConfig().mail;
  if (!smtpUrl) return "mail: no SMTP_URL set, messages go to the database outbox (npm run admin -- mail list)";
  const url = new URL(smtpUrl);
  return `mail: SMTP via ${url.hostname}:${url.port || (url.protocol === "smtps:" ? 465 : 587)}`;
}

export interface OutboxEntry {
  id: string;
  to: string;
  subject: string;
  text: string;
  createdAt: string;
}

/** The outbox, newest first (operator CLI `mail list [--to E]`). */
export async function listOutbox(input: { to?: string } = {}): Promise<{ messages: OutboxEntry[] }> {
  const rows = await getDb().outboxMessage.findMany({
    where: input.to ? { to: input.to.trim().toLowerCase() } : {},
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: 500,
  });
  return { messages: rows.map((r) => ({ id: r.id, to: r.to, subject: r.subject, text: r.text, createdAt: r.createdAt.toISOString() })) };
}
