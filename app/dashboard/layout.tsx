import Link from "next/link";
import type { ReactNode } from "react";
import { signOutAction } from "@/app/(auth)/actions";
import { NavLink } from "@/components/dashboard/nav-link";
import { DashboardShell } from "@/components/dashboard/dashboard-shell";
import { EmailConfirmationBanner } from "@/components/dashboard/email-confirmation";
import { Providers } from "@/components/dashboard/providers";
import { MemberClockProvider } from "@/components/dashboard/time-zone";
import { WorkspaceSwitcher } from "@/components/dashboard/workspace-switcher";
import { currentClock, currentEmailStatus, requirePrincipal } from "@/lib/dashboard/current";
import { planStatus } from "@/lib/dashboard/access";
import { listUserWorkspaces } from "@/lib/dashboard/account";
import { resendVerificationEmailAction, switchWorkspace } from "./actions";

export const dynamic = "force-dynamic";

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const principal = await requirePrincipal();
  const plan = planStatus(principal.workspace);
  const [workspaces, clock, address] = await Promise.all([
    listUserWorkspaces(principal.userId),
    currentClock(principal.userId),
    currentEmailStatus(principal.userId),
  ]);
  return (
    <Providers>
      <MemberClockProvider clock={clock}>
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
        >
          Skip to content
        </a>
        <DashboardShell
          brand={
            <Link href="/dashboard/library" className="flex items-center gap-2 px-1 py-2 text-lg font-semibold tracking-tight md:px-5 md:py-4">
              <span aria-hidden className="grid size-7 place-items-center rounded-md bg-indigo-600 text-sm font-bold text-white">
                A
              </span>
              Adloom
            </Link>
          }
          sidebar={
            <>
              <WorkspaceSwitcher workspaces={workspaces} activeId={principal.workspaceId} switchAction={switchWorkspace} />
              {/* One NavLink per page: add a line here to add a page. */}
              <nav aria-label="Main" className="mt-2 flex-1 space-y-1 overflow-y-auto px-2">
                <NavLink href="/dashboard/library">Library</NavLink>
                <NavLink href="/dashboard/uploads">Uploads</NavLink>
                <NavLink href="/dashboard/import">Import</NavLink>
                <NavLink href="/dashboard/ads">Ads</NavLink>
                <NavLink href="/dashboard/performance">Performance</NavLink>
                <NavLink href="/dashboard/boards">Boards</NavLink>
                <NavLink href="/dashboard/leads">Leads</NavLink>
                <NavLink href="/dashboard/tasks">Tasks</NavLink>
                <NavLink href="/dashboard/moderation">Moderation</NavLink>
                <NavLink href="/dashboard/review-links">Review links</NavLink>
                <NavLink href="/dashboard/assistant">Assistant</NavLink>
                <p className="px-3 pb-1 pt-5 text-xs font-medium uppercase tracking-wide text-slate-500">Settings</p>
                <NavLink href="/dashboard/settings/ad-accounts">Ad accounts</NavLink>
                <NavLink href="/dashboard/settings/api-keys">API keys</NavLink>
                <NavLink href="/dashboard/settings/webhooks">Webhooks</NavLink>
                <NavLink href="/dashboard/settings/notifications">Notifications</NavLink>
                <NavLink href="/dashboard/settings/naming">Naming</NavLink>
                <NavLink href="/dashboard/settings/team">Team</NavLink>
                <NavLink href="/dashboard/settings/plan">Plan</NavLink>
                <NavLink href="/dashboard/settings/security">Security</NavLink>
                <NavLink href="/dashboard/settings/profile">Profile</NavLink>
              </nav>
              {/* Room reserved for all three lines: at the foot of the sidebar, a box growing as its lines
                  stream in would move up (a layout shift). */}
              <div className="min-h-24 border-t border-slate-200 p-3">
                <p className="truncate text-sm font-medium text-slate-900">{principal.userName}</p>
                <p className="truncate text-xs text-slate-500">{principal.userEmail}</p>
                <form action={signOutAction} className="mt-2">
                  <button
                    type="submit"
                    className="rounded text-sm font-medium text-slate-700 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
                  >
                    Sign out
                  </button>
                </form>
              </div>
            </>
          }
        >
          {address && !address.verified && <EmailConfirmationBanner email={address.email} resend={resendVerificationEmailAction} />}
          {plan.state !== "pro" && (
            <aside
              aria-label="Plan"
              className={`border-b px-4 py-2 text-sm md:px-8 ${plan.dashboardAccess ? "border-indigo-100 bg-indigo-50 text-indigo-900" : "border-amber-200 bg-amber-50 text-amber-900"}`}
            >
              {plan.state === "trial" && (
                <>
                  Free trial: {plan.trialDaysLeft === 1 ? "last day" : `${plan.trialDaysLeft} days left`}. The trial covers the dashboard; API keys need Pro.{" "}
                </>
              )}
              {plan.state === "trial_ended" && <>Your free trial has ended. </>}
              {plan.state === "lapsed" && <>This workspace has no active plan. </>}
              <Link href="/dashboard/settings/plan" className="font-medium underline underline-offset-2">
                {plan.dashboardAccess ? "See plans" : "Choose a plan to continue"}
              </Link>
            </aside>
          )}
          <main id="main" className="mx-auto max-w-7xl px-4 py-6 sm:px-6 md:px-8 md:py-8">
            {children}
          </main>
        </DashboardShell>
      </MemberClockProvider>
    </Providers>
  );
}
