"use client";
import Link from "next/link";
import { useRouter, useSearchParams } from "next/navigation";
import { buttonClass } from "@/components/ui/button";

const uploadsFor = (folder: string | null | undefined) =>
  folder && folder !== "root" ? `/dashboard/uploads?folder=${encodeURIComponent(folder)}` : "/dashboard/uploads";

/** "Upload files", carrying the library's chosen folder (from the URL) so the upload form preselects it. */
export function UploadFilesLink() {
  const router = useRouter();
  const folder = useSearchParams()?.get("folder");
  return (
    <Link
      href={uploadsFor(folder)}
      className={buttonClass()}
      onClick={(e) => {
        // The folder may have changed a moment ago (the URL is rewritten in place): read it now.
        const current = new URL(window.location.href).searchParams.get("folder");
        if (current === folder) return;
        e.preventDefault();
        router.push(uploadsFor(current));
      }}
    >
      Upload files
    </Link>
  );
}
