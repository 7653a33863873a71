import type { Metadata } from "next";
import { EmptyState, PageHeader } from "@/components/ui/misc";
import { can } from "@/lib/dashboard/access";
import { EVENT_TYPES } from "@/lib/events/types";
import { requirePrincipal } from "@/lib/dashboard/current";
import { WebhookSettings } from "./webhook-settings";

export const metadata: Metadata = { title: "Webhooks" };
export const dynamic = "force-dynamic";

export default async function WebhooksPage() {
  const principal = await requirePrincipal();
  return (
    <>
      <PageHeader
        title="Webhooks"
        description="One HTTPS endpoint receives signed events: upload results and other workspace activity. Every delivery is logged for 7 days and can be re-sent."
      />
      {can(principal, "webhooks.read") ? (
        <WebhookSettings eventTypes={EVENT_TYPES.filter((t) => t !== "test")} />
      ) : (
        <EmptyState title="Only owners and admins manage webhooks">Ask an owner or admin of {principal.workspace.name} to set up the endpoint.</EmptyState>
      )}
    </>
  );
}
