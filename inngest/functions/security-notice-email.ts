import { NonRetriableError } from "inngest";
import { z } from "zod";
import { inngest } from "@/inngest/client";
import { SECURITY_NOTICE_EMAIL_EVENT } from "@/lib/session/security-events";
import { sendSecurityNotice } from "@/lib/session/security-notice";

const NoticeData = z.object({ securityEventId: z.string().min(1) });

/**
 * Emails the account's address about one change to its security (lib/session/security-notice.ts): a password changed,
 * reset or set by the operator, two-factor turned off. After the change's answer, so no request waits on SMTP.
 */
export const securityNoticeEmail = inngest.createFunction(
  { id: "security-notice-email", name: "Email a security notice", triggers: [{ event: SECURITY_NOTICE_EMAIL_EVENT }], retries: 4 },
  async ({ event, step }) => {
    const data = NoticeData.safeParse(event.data);
    if (!data.success) throw new NonRetriableError(`Malformed ${SECURITY_NOTICE_EMAIL_EVENT} event: ${data.error.message}`);
    const outcome = await step.run("send", () => sendSecurityNotice(data.data));
    return { outcome };
  },
);
