import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/misc";
import { requirePrincipal } from "@/lib/dashboard/current";
import { remainingRecoveryCodes } from "@/lib/dashboard/account";
import { SignOutEverywhere } from "./sign-out-everywhere";
import { TwoFactorSettings } from "./two-factor-settings";

export const metadata: Metadata = { title: "Security" };
export const dynamic = "force-dynamic";

export default async function SecurityPage() {
  const principal = await requirePrincipal();
  const remaining = principal.twoFactorEnabled ? await remainingRecoveryCodes(principal.userId) : 0;
  const required = principal.workspace.twoFactorRequiredFor;
  return (
    <>
      <PageHeader title="Security" description="Protect your account with a second step at sign-in." />
      <TwoFactorSettings enabled={principal.twoFactorEnabled} remainingRecoveryCodes={remaining} requiredFor={required} />
      <div className="mt-8">
        <SignOutEverywhere />
      </div>
    </>
  );
}
