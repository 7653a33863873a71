import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/misc";
import { getProfile } from "@/lib/dashboard/account";
import { currentClock, requirePrincipal } from "@/lib/dashboard/current";
import { ProfileForms } from "./profile-forms";

export const metadata: Metadata = { title: "Profile" };
export const dynamic = "force-dynamic";

export default async function ProfilePage() {
  const principal = await requirePrincipal();
  const [profile, clock] = await Promise.all([getProfile(principal.userId), currentClock(principal.userId)]);
  return (
    <>
      <PageHeader
        title="Profile"
        description="Your name, password, time zone and date format (every date in the dashboard is written in them), and your workspaces."
      />
      <ProfileForms profile={profile} locale={clock.locale} timeZones={Intl.supportedValuesOf("timeZone")} />
    </>
  );
}
