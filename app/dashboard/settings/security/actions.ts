"use server";
import { runAsPrincipal } from "@/lib/dashboard/action-result";
import { confirmTwoFactorEnrolment, disableTwoFactor, startTwoFactorEnrolment } from "@/lib/session/two-factor";

export async function startEnrolmentAction() {
  return runAsPrincipal((p) => startTwoFactorEnrolment(p.userId));
}

export async function confirmEnrolmentAction(code: string) {
  return runAsPrincipal((p) => confirmTwoFactorEnrolment(p.userId, code), "/dashboard/settings/security");
}

export async function disableTwoFactorAction(code: string) {
  return runAsPrincipal((p) => disableTwoFactor(p.userId, code), "/dashboard/settings/security");
}
