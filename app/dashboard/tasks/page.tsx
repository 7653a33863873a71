import type { Metadata } from "next";
import { PlanRequired } from "@/components/dashboard/page-gates";
import { PageHeader } from "@/components/ui/misc";
import { can } from "@/lib/dashboard/access";
import { requirePrincipal } from "@/lib/dashboard/current";
import { taskAssignees, workspaceMembers } from "@/lib/read-models/team";
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
  const person = ({ userId, name, email }: { userId: string; name: string; email: string }) => ({ userId, name, email });
  const [members, assignable] = await Promise.all([
    workspaceMembers(principal).then((m) => m.map(person)),
    taskAssignees(principal).then((m) => m.map(person)),
  ]);
  return (
    <>
      <PageHeader
        title="Tasks"
        description="Plan the work around your creatives and ads: lists, assignees, due dates and comments. Assignees hear about it by webhook, and a digest of what is due goes out every morning."
      />
      <TasksWorkspace members={members} assignable={assignable} me={principal.userId} canWrite={can(principal, "tasks.write")} />
    </>
  );
}
