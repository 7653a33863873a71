"use client";
import Link from "next/link";
import { usePathname } from "next/navigation";

const TABS = [
  { href: "/dashboard/performance", label: "Overview" },
  { href: "/dashboard/performance/rules", label: "Rules" },
];

export function PerformanceTabs() {
  const pathname = usePathname();
  return (
    <nav aria-label="Performance" className="flex gap-1 border-b border-slate-200">
      {TABS.map((tab) => {
        const active = tab.href === "/dashboard/performance" ? pathname === tab.href : pathname?.startsWith(tab.href);
        return (
          <Link
            key={tab.href}
            href={tab.href}
            aria-current={active ? "page" : undefined}
            className={`-mb-px border-b-2 px-4 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-indigo-600 ${
              active ? "border-indigo-600 text-indigo-800" : "border-transparent text-slate-600 hover:text-slate-900"
            }`}
          >
            {tab.label}
          </Link>
        );
      })}
    </nav>
  );
}
