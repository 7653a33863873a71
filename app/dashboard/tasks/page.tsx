import type { Metadata } from "next";
import { PlanRequired } from "@/components/dashboard/page-gates";
import { PageHeader } from "@/components/ui/misc";
import { can } from "@/lib/dashboard/access";
import { requirePrincipal } from "@/lib/dashboard/current";
import { workspaceMembers } from "@/lib/read-models/team";
import { planStatus } from "@/lib/dashboard/access";
import { TasksWorkspace } from "./tasks-workspace";

export const metadata: Metadata = { title: "Tasks" };
export const dynamic = "force-dynamic";

export default async function TasksPage() {
  const principal = await requirePrincipal();
  if (!planStatus(principal.workspace).dashboardAccess) {
    return (
      <PlanRequired page="Tasks" title="Choose a plan to open tasks">
        Tasks open again as soon as the workspace is on a plan.
      </PlanRequired>
    );
  }
  const members = (await workspaceMembers(principal)).map(({ userId, name, email }) => ({ userId, name, email }));
  return (
    <>
      <PageHeader
        title="Tasks"
        description="Plan the work around your creatives and ads: lists, assignees, due dates and comments. Assignees hear about it by webhook, and a digest of what is due goes out every morning."
      />
      <TasksWorkspace members={members} me={principal.userId} canWrite={can(principal, "tasks.write")} />
    </>
  );
}
