import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/misc";
import { getProfile } from "@/lib/dashboard/account";
import { requirePrincipal } from "@/lib/dashboard/current";
import { ProfileForms } from "./profile-forms";

export const metadata: Metadata = { title: "Profile" };
export const dynamic = "force-dynamic";

export default async function ProfilePage() {
  const principal = await requirePrincipal();
  const profile = await getProfile(principal.userId);
  return (
    <>
      <PageHeader title="Profile" description="Your name, password and time zone (every time in the dashboard is shown in it), and your workspaces." />
      <ProfileForms profile={profile} timeZones={Intl.supportedValuesOf("timeZone")} />
    </>
  );
}
