import { NonRetriableError } from "inngest";
import { z } from "zod";
import { inngest } from "@/inngest/client";
import { PASSWORD_RESET_EMAIL_EVENT, sendPasswordResetEmail } from "@/lib/session/password-reset";

const ResetData = z.object({ userId: z.string().min(1).nullable() });

/**
 * One password-reset request (lib/session/password-reset.ts): makes the link and emails it, after the form has
 * answered, so known and unknown addresses answer alike. One step: a retry (the mail server failed for a while)
 * makes a new link rather than keeping the token in the job's history.
 */
export const passwordResetEmail = inngest.createFunction(
  { id: "password-reset-email", name: "Email a password reset link", triggers: [{ event: PASSWORD_RESET_EMAIL_EVENT }], retries: 4 },
  async ({ event, step }) => {
    const data = ResetData.safeParse(event.data);
    if (!data.success) throw new NonRetriableError(`Malformed ${PASSWORD_RESET_EMAIL_EVENT} event: ${data.error.message}`);
    const outcome = await step.run("send", () => sendPasswordResetEmail(data.data));
    return { outcome };
  },
);
