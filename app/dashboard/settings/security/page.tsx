import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/misc";
import { currentClock, requirePrincipal } from "@/lib/dashboard/current";
import { listSecurityEvents, remainingRecoveryCodes } from "@/lib/dashboard/account";
import { SecurityActivity } from "./security-activity";
import { SignOutEverywhere } from "./sign-out-everywhere";
import { TwoFactorSettings } from "./two-factor-settings";

export const metadata: Metadata = { title: "Security" };
export const dynamic = "force-dynamic";

export default async function SecurityPage() {
  const principal = await requirePrincipal();
  const remaining = principal.twoFactorEnabled ? await remainingRecoveryCodes(principal.userId) : 0;
  const required = principal.workspace.twoFactorRequiredFor;
  const [events, clock] = await Promise.all([listSecurityEvents(principal.userId, 20), currentClock(principal.userId)]);
  return (
    <>
      <PageHeader title="Security" description="Protect your account with a second step at sign-in, and see its recent sign-ins and changes." />
      <TwoFactorSettings enabled={principal.twoFactorEnabled} remainingRecoveryCodes={remaining} requiredFor={required} />
      <div className="mt-8">
        <SignOutEverywhere />
      </div>
      <div className="mt-8">
        <SecurityActivity events={events} clock={clock} />
      </div>
    </>
  );
}
