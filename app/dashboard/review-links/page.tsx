import type { Metadata } from "next";
import { EmptyState, PageHeader } from "@/components/ui/misc";
import { can } from "@/lib/dashboard/access";
import { reviewLinks } from "@/lib/read-models/review-links";
import { requirePrincipal } from "@/lib/dashboard/current";
import { listVisibleFolders } from "@/lib/read-models/library";
import { ReviewLinksManager } from "./review-links-manager";

export const metadata: Metadata = { title: "Review links" };
export const dynamic = "force-dynamic";

export default async function ReviewLinksPage() {
  const principal = await requirePrincipal();
  if (!can(principal, "review.share")) {
    return (
      <>
        <PageHeader title="Review links" />
        <EmptyState title="Your role cannot share review links">Ask an owner, admin or editor to share creatives for review.</EmptyState>
      </>
    );
  }
  const [{ links }, folders] = await Promise.all([reviewLinks(principal, { limit: 200 }), listVisibleFolders(principal)]);
  return (
    <>
      <PageHeader
        title="Review links"
        description="Links that let people without an account view, comment on and approve creatives. Share a single creative from its page, or a whole folder here."
      />
      <ReviewLinksManager initialLinks={links} folders={folders.map((f) => ({ id: f.id, name: f.name }))} />
    </>
  );
}
