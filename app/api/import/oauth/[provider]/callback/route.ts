import { finishStorageConnect, isOAuthStorageProvider } from "@/lib/dashboard/storage-oauth";

// Where Google or Dropbox sends the browser back after consent: stores the sealed tokens as a connection.
export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export async function GET(request: Request, { params }: { params: Promise<{ provider: string }> }): Promise<Response> {
  const { provider } = await params;
  if (!isOAuthStorageProvider(provider)) return Response.json({ error: { code: "not_found", message: "No such storage provider" } }, { status: 404 });
  return finishStorageConnect(provider, new URL(request.url).searchParams);
}
