import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/misc";
import { can } from "@/lib/dashboard/access";
import { requirePrincipal } from "@/lib/dashboard/current";
import { NotificationSettings } from "./notification-settings";

export const metadata: Metadata = { title: "Notifications" };
export const dynamic = "force-dynamic";

export default async function NotificationsPage() {
  const principal = await requirePrincipal();
  return (
    <>
      <PageHeader
        title="Notifications"
        description="What you are told by email when something needs you, and the workspace's Slack channel. Webhooks are for machines; this is for people."
      />
      <NotificationSettings canManageSlack={can(principal, "notifications.slack.read")} workspaceName={principal.workspace.name} />
    </>
  );
}
