import { drivePickerResponse } from "@/lib/dashboard/storage-oauth";

// The Import page's Google Picker: a current access token for one Drive connection (docs/import.md).
export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export async function GET(request: Request): Promise<Response> {
  return drivePickerResponse(request);
}
