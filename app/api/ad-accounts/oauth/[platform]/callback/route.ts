import { finishConnect, isPlatform } from "@/lib/dashboard/ad-account-oauth";

// Where the platform sends the browser back after authorization: stores the token, connects the accounts.
export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export async function GET(request: Request, { params }: { params: Promise<{ platform: string }> }): Promise<Response> {
  const { platform } = await params;
  if (!isPlatform(platform)) return Response.json({ error: { code: "not_found", message: "No such platform" } }, { status: 404 });
  return finishConnect(platform, new URL(request.url).searchParams);
}
