import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { signOutAction } from "../actions";
import { currentPrincipal, currentUserId } from "@/lib/dashboard/current";
import { CreateWorkspaceForm } from "./create-workspace-form";

export const metadata: Metadata = { title: "Create a workspace" };
export const dynamic = "force-dynamic";

/** Where a signed-in user with no workspace (removed from all of them) lands. */
export default async function WelcomePage() {
  if (!(await currentUserId())) redirect("/sign-in");
  if (await currentPrincipal()) redirect("/dashboard");
  return (
    <>
      <h1 className="mb-1 text-xl font-semibold text-slate-900">You are not in any workspace</h1>
      <p className="mb-6 text-sm text-slate-600">Create your own (it starts on a 14-day free trial), or ask a teammate for an invite link.</p>
      <CreateWorkspaceForm />
      <form action={signOutAction} className="mt-4 text-center">
        <button type="submit" className="text-sm text-slate-600 underline underline-offset-2">
          Sign out
        </button>
      </form>
    </>
  );
}
