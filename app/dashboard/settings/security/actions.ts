"use server";
import { redirect } from "next/navigation";
import { signOut } from "@/auth";
import { z } from "zod";
import { actionInput, runAsPrincipal } from "@/lib/dashboard/action-result";
import { requirePrincipal } from "@/lib/dashboard/current";
import { revokeSessions } from "@/lib/dashboard/account";
import { confirmTwoFactorEnrolment, disableTwoFactor, startTwoFactorEnrolment } from "@/lib/dashboard/account";

export async function startEnrolmentAction() {
  return runAsPrincipal((p) => startTwoFactorEnrolment(p.userId));
}

const Code = z.string().max(100);

export async function confirmEnrolmentAction(code: string) {
  return runAsPrincipal(async (p) => confirmTwoFactorEnrolment(p.userId, actionInput(Code, code)), "/dashboard/settings/security");
}

export async function disableTwoFactorAction(code: string) {
  return runAsPrincipal(async (p) => disableTwoFactor(p.userId, actionInput(Code, code)), "/dashboard/settings/security");
}

/** Ends every dashboard session of the signed-in user (this one too), then goes to the sign-in page. */
export async function signOutEverywhereAction(): Promise<void> {
  const principal = await requirePrincipal();
  await revokeSessions(principal.userId);
  await signOut({ redirect: false });
  redirect("/sign-in");
}
