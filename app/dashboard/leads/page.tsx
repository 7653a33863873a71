import type { Metadata } from "next";
import Link from "next/link";
import { NoAccess, PlanRequired } from "@/components/dashboard/page-gates";
import { buttonClass } from "@/components/ui/button";
import { Card, EmptyState, PageHeader, TableHead } from "@/components/ui/misc";
import { formatDateTime, formatRelative } from "@/components/dashboard/format";
import { can } from "@/lib/dashboard/access";
import { currentClock, requirePrincipal } from "@/lib/dashboard/current";
import { isAppError } from "@/lib/errors";
import { leadForms, leadsPage } from "@/lib/read-models/leads";
import { planStatus } from "@/lib/dashboard/access";
import { pullLeadsNow } from "./actions";

export const metadata: Metadata = { title: "Leads" };
export const dynamic = "force-dynamic";

const PAGE_SIZE = 50;

export default async function LeadsPage({ searchParams }: { searchParams: Promise<{ form?: string; cursor?: string }> }) {
  const principal = await requirePrincipal();
  if (!planStatus(principal.workspace).dashboardAccess) {
    return (
      <PlanRequired page="Leads" title="Choose a plan to see leads">
        Leads open again as soon as the workspace is on a plan.
      </PlanRequired>
    );
  }
  if (!can(principal, "ads.read")) {
    return (
      <NoAccess page="Leads" title="Your role cannot view ads and their results">
        Ask an owner or admin for access.
      </NoAccess>
    );
  }
  const { form: formParam, cursor } = await searchParams;
  const [{ forms }, clock] = await Promise.all([leadForms(principal), currentClock(principal.userId)]);
  const selected = forms.find((f) => f.id === formParam) ?? null;
  // The submissions (people's names and emails) need leads.read; a role without it sees the forms and counts.
  const canRead = can(principal, "leads.read");
  let page: Awaited<ReturnType<typeof leadsPage>> = { leads: [], nextCursor: null };
  let pageError: string | null = null;
  if (canRead) {
    try {
      page = await leadsPage(principal, { formId: selected?.id, limit: PAGE_SIZE, cursor });
    } catch (err) {
      if (!isAppError(err)) throw err;
      pageError = err.message;
    }
  }
  const total = forms.reduce((n, f) => n + f.leadCount, 0);
  const canExport = can(principal, "leads.export");
  const canPull = can(principal, "leads.pull");
  const exportHref = `/api/v1/leads/export.csv${selected ? `?formId=${encodeURIComponent(selected.id)}` : ""}`;
  const hrefFor = (formId: string | null, next?: string) => {
    const q = new URLSearchParams();
    if (formId) q.set("form", formId);
    if (next) q.set("cursor", next);
    const s = q.toString();
    return `/dashboard/leads${s ? `?${s}` : ""}`;
  };

  return (
    <>
      <PageHeader
        title="Leads"
        description="Submissions of your platform_a lead forms, pulled every minute (at most 1,000 per form per poll). Each one is also sent to your webhook as lead.received."
        actions={
          <>
            {canPull ? (
              <form action={pullLeadsNow}>
                <button type="submit" className={buttonClass("secondary")}>
                  Check for new leads
                </button>
              </form>
            ) : (
              <button type="button" disabled aria-describedby="export-not-allowed" className={buttonClass("secondary")}>
                Check for new leads
              </button>
            )}
            {canExport ? (
              <a href={exportHref} download className={buttonClass()}>
                Export CSV
              </a>
            ) : (
              <button type="button" disabled aria-describedby="export-not-allowed" className={buttonClass()}>
                Export CSV
              </button>
            )}
          </>
        }
      />
      {(!canExport || !canPull) && (
        <p id="export-not-allowed" data-testid="export-not-allowed" className="mb-4 text-sm text-slate-700">
          {canRead
            ? `Your role (${principal.role}) can see leads but not export or check for new ones: exporting or pulling`
            : `Your role (${principal.role}) can see the lead forms and how many submissions each has, but not the submissions: seeing, exporting or pulling`}{" "}
          people&apos;s names and emails needs the permission &quot;leads.export&quot; (owners, admins and editors).
        </p>
      )}
      <div className="grid gap-6 lg:grid-cols-[16rem_1fr]">
        <nav aria-label="Lead forms">
          <ul className="flex gap-2 overflow-x-auto lg:flex-col">
            <FormLink href={hrefFor(null)} current={!selected} name="All forms" count={total} />
            {forms.map((f) => (
              <FormLink
                key={f.id}
                href={hrefFor(f.id)}
                current={selected?.id === f.id}
                name={f.name}
                count={f.leadCount}
                detail={
                  f.lastError
                    ? `Last pull failed: ${f.lastError}`
                    : f.lastPolledAt
                      ? `Pulled ${formatRelative(f.lastPolledAt, Date.now(), clock)}`
                      : "Not pulled yet"
                }
              />
            ))}
          </ul>
        </nav>
        <div className="min-w-0">
          {!canRead ? (
            <div data-testid="leads-not-allowed">
              <EmptyState title="Submissions are not shown to your role">
                {selected ? `${selected.name} has` : "Your lead forms have"} {submissions(selected ? selected.leadCount : total)}; ask an owner or admin for the
                permission &quot;leads.export&quot; to see who submitted them.
              </EmptyState>
            </div>
          ) : pageError ? (
            <EmptyState title="These leads cannot be shown">{pageError}</EmptyState>
          ) : page.leads.length === 0 ? (
            <EmptyState title="No leads yet">
              Leads appear here once people submit a lead form of an ad in a leads campaign.{" "}
              {cursor ? (
                <Link href={hrefFor(selected?.id ?? null)} className="underline">
                  Back to the newest
                </Link>
              ) : null}
            </EmptyState>
          ) : (
            <Card className="overflow-hidden">
              <table className="stack-table w-full text-left text-sm">
                <caption className="sr-only">{selected ? `Leads of ${selected.name}` : "Leads of all forms"}, newest first</caption>
                <TableHead columns={["Submitted", "Form", "Ad", "Fields"]} />
                <tbody className="divide-y divide-slate-100">
                  {page.leads.map((lead) => (
                    <tr key={lead.id} className="align-top">
                      <td data-label="Submitted" className="whitespace-nowrap px-4 py-3 text-slate-700">
                        {formatDateTime(lead.submittedAt, clock)}
                      </td>
                      <td data-label="Form" className="px-4 py-3 text-slate-900">
                        {lead.form.name}
                      </td>
                      <td data-label="Ad" className="px-4 py-3 text-slate-700">
                        {lead.ad ? lead.ad.name : <span className="text-slate-600">{lead.adExternalId ? `Platform ad ${lead.adExternalId}` : "—"}</span>}
                      </td>
                      <td data-label="Fields" className="px-4 py-3">
                        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
                          {lead.fields.map((f) => (
                            <div key={f.name} className="contents">
                              <dt className="text-slate-600">{f.name}</dt>
                              <dd className="whitespace-pre-wrap break-words text-slate-900">{f.values.join("; ")}</dd>
                            </div>
                          ))}
                        </dl>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
              {(page.nextCursor || cursor) && (
                <div className="flex justify-between border-t border-slate-200 px-4 py-3 text-sm">
                  {cursor ? (
                    <Link href={hrefFor(selected?.id ?? null)} className="font-medium text-indigo-700 underline-offset-2 hover:underline">
                      Newest
                    </Link>
                  ) : (
                    <span />
                  )}
                  {page.nextCursor && (
                    <Link href={hrefFor(selected?.id ?? null, page.nextCursor)} className="font-medium text-indigo-700 underline-offset-2 hover:underline">
                      Older leads
                    </Link>
                  )}
                </div>
              )}
            </Card>
          )}
        </div>
      </div>
    </>
  );
}

const submissions = (n: number) => `${n.toLocaleString("en-US")} submission${n === 1 ? "" : "s"}`;

function FormLink({ href, current, name, count, detail }: { href: string; current: boolean; name: string; count: number; detail?: string }) {
  return (
    <li className="shrink-0">
      <Link
        href={href}
        aria-current={current ? "page" : undefined}
        className={`block rounded-md border px-3 py-2 text-sm focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 ${
          current ? "border-indigo-300 bg-indigo-50 text-indigo-900" : "border-slate-200 bg-white text-slate-800 hover:bg-slate-50"
        }`}
      >
        <span className="font-medium">{name}</span> <span className="text-slate-600">({count.toLocaleString("en-US")})</span>
        {detail && <span className="mt-0.5 block text-xs text-slate-600">{detail}</span>}
      </Link>
    </li>
  );
}
