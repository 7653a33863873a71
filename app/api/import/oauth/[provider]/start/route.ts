import { isOAuthStorageProvider, startStorageConnect } from "@/lib/dashboard/storage-oauth";

// The Import page's "Connect Google Drive / Dropbox": to the provider's consent page (docs/import.md).
export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export async function GET(_request: Request, { params }: { params: Promise<{ provider: string }> }): Promise<Response> {
  const { provider } = await params;
  if (!isOAuthStorageProvider(provider)) return Response.json({ error: { code: "not_found", message: "No such storage provider" } }, { status: 404 });
  return startStorageConnect(provider);
}
