import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { formatBytes, formatDateTime } from "@/components/dashboard/format";
import { buttonClass } from "@/components/ui/button";
import { CreativeThumbnail } from "@/components/ui/creative-thumbnail";
import { Badge, Card } from "@/components/ui/misc";
import { can } from "@/lib/dashboard/access";
import { COPY_TEXT_LIMITS, creativePage } from "@/lib/read-models/creative";
import { currentClock, requirePrincipal } from "@/lib/dashboard/current";
import { CopyEditor } from "./copy-editor";
import { PIN_SLOT_ID } from "./pin-slot";
import { ReviewSection } from "./review-section";
import { AdAccountsPanel } from "./ad-accounts-panel";

export const metadata: Metadata = { title: "Creative" };
export const dynamic = "force-dynamic";

export default async function CreativePage({ params }: { params: Promise<{ id: string }> }) {
  const principal = await requirePrincipal();
  const { id } = await params;
  const page = await creativePage(principal, id);
  if (!page) notFound();
  const { creative, sizeBytes, copies } = page;
  const ratio = creative.width && creative.height ? `${creative.width} / ${creative.height}` : "16 / 9";
  return (
    <>
      <nav aria-label="Breadcrumb" className="mb-2 text-sm text-slate-600">
        <Link href="/dashboard/library" className="hover:underline">
          Library
        </Link>{" "}
        /
      </nav>
      <h1 className="mb-6 break-all text-2xl font-semibold tracking-tight text-slate-900">{creative.fileName}</h1>
      {/*
        Below lg the left column dissolves (contents) so its cards and the copy editor order as one list:
        the preview, then the copy, then the rest (no long scroll from the picture to its copy).
      */}
      <div className="grid gap-4 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)] lg:gap-8">
        <div className="max-lg:contents lg:space-y-4">
          <Card className="overflow-hidden max-lg:order-first">
            <div className="flex max-h-[70vh] items-center justify-center bg-slate-900" style={{ aspectRatio: ratio }} data-creative-preview>
              {/* An image's preview becomes the review panel's pin area once it mounts (PIN_SLOT_ID): one picture, not two. */}
              {creative.mediaPath && creative.kind === "image" && <div id={PIN_SLOT_ID} className="contents" />}
              {creative.mediaPath && creative.kind === "image" && creative.thumbnails && (
                <div data-preview-fallback className="contents">
                  <CreativeThumbnail
                    thumbnails={creative.thumbnails}
                    alt={creative.fileName}
                    sizes="(min-width: 1024px) 60vw, 100vw"
                    eager
                    width={creative.width}
                    height={creative.height}
                    className="max-h-[70vh] size-full object-contain"
                  />
                </div>
              )}
              {creative.mediaPath && creative.kind === "video" && (
                <video
                  data-testid="creative-video"
                  controls
                  preload="metadata"
                  playsInline
                  className="max-h-[70vh] size-full"
                  src={creative.previewPath ?? creative.mediaPath}
                  poster={creative.thumbnails?.large}
                >
                  Your browser cannot play this video. <a href={`${creative.mediaPath}?download=`}>Download it</a> instead.
                </video>
              )}
              {!creative.mediaPath && (
                <p className="text-sm text-slate-300" data-testid="creative-import-state">
                  {creative.status === "failed"
                    ? `This creative failed to import.${creative.error ? ` ${creative.error}` : ""}`
                    : "Importing… refresh in a moment."}
                </p>
              )}
            </div>
          </Card>
          <Card className="p-4">
            <dl className="grid grid-cols-2 gap-x-6 gap-y-2 text-sm sm:grid-cols-4">
              <div>
                <dt className="text-slate-500">Type</dt>
                <dd className="flex items-center gap-1">
                  <Badge tone={creative.kind === "video" ? "sky" : "indigo"}>{creative.kind}</Badge>{" "}
                  <span className="text-slate-700">{creative.contentType}</span>
                </dd>
              </div>
              <div>
                <dt className="text-slate-500">Dimensions</dt>
                <dd data-testid="creative-dimensions" className="text-slate-900">
                  {creative.width && creative.height ? `${creative.width} × ${creative.height} px` : "Unknown yet"}
                </dd>
              </div>
              <div>
                <dt className="text-slate-500">Size</dt>
                <dd className="text-slate-900">{formatBytes(sizeBytes)}</dd>
              </div>
              <div>
                <dt className="text-slate-500">Added</dt>
                <dd className="text-slate-900">{formatDateTime(creative.createdAt, await currentClock(principal.userId))}</dd>
              </div>
            </dl>
            {creative.mediaPath && (
              <div className="mt-4 flex flex-wrap gap-2">
                {/* The page shows a thumbnail; the full-size file only when asked for. */}
                <a href={creative.mediaPath} target="_blank" rel="noopener" className={buttonClass("secondary", "sm")} data-testid="view-original">
                  View original
                </a>
                <a href={`${creative.mediaPath}?download=${encodeURIComponent(creative.fileName)}`} className={buttonClass("secondary", "sm")} download>
                  Download original
                </a>
              </div>
            )}
          </Card>
          {creative.status === "ready" && can(principal, "ads.read") && <AdAccountsPanel creativeId={creative.id} canSend={can(principal, "ads.write")} />}
          <ReviewSection principal={principal} creativeId={creative.id} kind={creative.kind} fileName={creative.fileName} />
        </div>
        <div className="max-lg:order-first">
          <CopyEditor
            creativeId={creative.id}
            initialCopies={copies}
            limits={COPY_TEXT_LIMITS}
            canEdit={can(principal, "copy.write")}
            canDelete={can(principal, "copy.delete")}
          />
        </div>
      </div>
    </>
  );
}
