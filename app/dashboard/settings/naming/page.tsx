import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/misc";
import { can } from "@/lib/dashboard/access";
import { requirePrincipal } from "@/lib/dashboard/current";
import { NamingSettings } from "./naming-settings";

export const metadata: Metadata = { title: "Naming" };
export const dynamic = "force-dynamic";

export default async function NamingPage() {
  const principal = await requirePrincipal();
  return (
    <>
      <PageHeader
        title="Naming"
        description="A file-name pattern turns names like spring_hookA_9x16.mp4 into labels on each new creative. Creatives of one concept in several aspects become one ad in the bulk builder."
      />
      <NamingSettings canEdit={can(principal, "naming.write")} />
    </>
  );
}
