import Link from "next/link";
import type { ReactNode } from "react";

export default function AuthLayout({ children }: { children: ReactNode }) {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center bg-gradient-to-b from-indigo-50 to-slate-50 px-4 py-12">
      <Link href="/" className="mb-8 flex items-center gap-2 text-xl font-semibold tracking-tight text-slate-900">
        <span aria-hidden className="grid size-8 place-items-center rounded-lg bg-indigo-600 text-base font-bold text-white">
          A
        </span>
        Adloom
      </Link>
      <div className="w-full max-w-sm rounded-xl border border-slate-200 bg-white p-8 shadow-sm">{children}</div>
    </main>
  );
}
