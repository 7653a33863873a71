import type { ReactNode } from "react";
import { PageHeader } from "@/components/ui/misc";
import { PerformanceTabs } from "./tabs";

/** The Performance area: Overview (charts, labels, creative tests) and Rules, as tabs. */
export default function PerformanceLayout({ children }: { children: ReactNode }) {
  return (
    <>
      <PageHeader title="Performance" description="What your creatives delivered over the last 30 days, rolled up every hour from both ad platforms." />
      <PerformanceTabs />
      <div className="mt-6">{children}</div>
    </>
  );
}
