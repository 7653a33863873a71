"use client";
import { usePathname } from "next/navigation";
import { useEffect, useState, type ReactNode } from "react";

/**
 * The dashboard frame: a fixed sidebar from the md breakpoint up; below it a top bar whose menu
 * button opens the same sidebar as a drawer (closed again on navigation and with Escape).
 */
export function DashboardShell({ brand, sidebar, children }: { brand: ReactNode; sidebar: ReactNode; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const pathname = usePathname();
  // biome-ignore lint/correctness/useExhaustiveDependencies: a route change (pathname) closes the menu
  useEffect(() => setOpen(false), [pathname]);
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => e.key === "Escape" && setOpen(false);
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [open]);
  return (
    <div className="min-h-screen md:flex">
      <header className="sticky top-0 z-30 flex items-center justify-between border-b border-slate-200 bg-white px-4 py-2 md:hidden">
        {brand}
        <button
          type="button"
          aria-expanded={open}
          aria-controls="dashboard-sidebar"
          onClick={() => setOpen((o) => !o)}
          className="inline-flex h-10 items-center gap-2 rounded-md border border-slate-300 px-3 text-sm font-medium text-slate-800 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
        >
          <span aria-hidden className="text-base leading-none">
            {open ? "✕" : "☰"}
          </span>
          Menu
        </button>
      </header>
      {open && <div aria-hidden className="fixed inset-0 z-30 bg-slate-900/40 md:hidden" onClick={() => setOpen(false)} />}
      <aside
        id="dashboard-sidebar"
        className={`${open ? "fixed inset-y-0 left-0 z-40 flex w-72 max-w-[85vw] shadow-xl" : "hidden"} h-dvh flex-col border-r border-slate-200 bg-white md:sticky md:top-0 md:flex md:h-screen md:w-60 md:max-w-none md:shrink-0 md:shadow-none`}
      >
        <div className="hidden md:block">{brand}</div>
        {sidebar}
      </aside>
      <div className="min-w-0 flex-1">{children}</div>
    </div>
  );
}
