"use client";
import Link from "next/link";
import { useSearchParams } from "next/navigation";
import { buttonClass } from "@/components/ui/button";

/** "Upload files", carrying the library's chosen folder (from the URL) so the upload form preselects it. */
export function UploadFilesLink() {
  const folder = useSearchParams()?.get("folder") ?? null;
  return (
    <Link href={folder ? `/dashboard/uploads?folder=${encodeURIComponent(folder)}` : "/dashboard/uploads"} className={buttonClass()}>
      Upload files
    </Link>
  );
}
