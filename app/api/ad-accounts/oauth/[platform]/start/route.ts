import { isPlatform, startConnect } from "@/lib/dashboard/ad-account-oauth";

// The dashboard's "Connect" button: to the platform's authorization page (docs/platforms.md).
export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export async function GET(_request: Request, { params }: { params: Promise<{ platform: string }> }): Promise<Response> {
  const { platform } = await params;
  if (!isPlatform(platform)) return Response.json({ error: { code: "not_found", message: "No such platform" } }, { status: 404 });
  return startConnect(platform);
}
