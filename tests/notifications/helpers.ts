import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { paced } from "../../scripts/test-pace.mjs";

export interface ReceivedMail {
  to: string[];
  subject: string;
  /** The body with quoted-printable soft line breaks undone. */
  text: string;
}

/** RFC 2047 encoded words (nodemailer encodes a subject with quotes or non-ASCII), UTF-8 only. */
function decodeWords(header: string): string {
  return header.replace(/=\?UTF-8\?([QB])\?([^?]*)\?=/gi, (_, enc: string, text: string) =>
    enc.toUpperCase() === "B"
      ? Buffer.from(text, "base64").toString("utf8")
      : Buffer.from(
          text.replace(/_/g, " ").replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(Number.parseInt(h, 16))),
          "latin1",
        ).toString("utf8"),
  );
}

/**
 * A real SMTP server on loopback that keeps every message it accepts. It refuses, as a mail server does a
 * mailbox it does not have (550), every recipient whose address starts with `bounce-`.
 */
export async function startSmtp(): Promise<{ url: string; mails: ReceivedMail[]; to(email: string): ReceivedMail[]; close(): Promise<void> }> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onRcptTo(address, _session, callback) {
      if (!address.address.startsWith("bounce-")) return callback();
      callback(Object.assign(new Error("5.1.1 No such mailbox here"), { responseCode: 550 }));
    },
    onData(stream, session, callback) {
      let raw = "";
      stream.on("data", (c: Buffer) => (raw += c.toString()));
      stream.on("end", () => {
        const [head, ...rest] = raw.split(/\r?\n\r?\n/);
        const folded = /^Subject: (.*(?:\r?\n[ \t].*)*)/m.exec(head ?? "")?.[1] ?? "";
        const subject = decodeWords(folded.replace(/\?=\r?\n[ \t]=\?/g, "?==?").replace(/\r?\n[ \t]/g, " "));
        const text = rest
          .join("\n\n")
          .replace(/=\r?\n/g, "")
          .replace(/=([0-9A-F]{2})/g, (_, h) => String.fromCharCode(Number.parseInt(h, 16)));
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), subject, text });
        callback();
      });
    },
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`,
    mails,
    to: (email) => mails.filter((m) => m.to.includes(email)),
    close: () => new Promise<void>((r) => server.close(r)),
  };
}

/** Polls until `check` returns something truthy (the timeout stretched by the run's pace). */
export async function until<T>(what: string, check: () => T | Promise<T>, timeoutMs = 30_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + paced(timeoutMs);
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
