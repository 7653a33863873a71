import { finishChoice } from "@/lib/dashboard/ad-account-oauth";

// The Connect choice step's form: connects the picked ad accounts and Page of a pending authorization.
export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export async function POST(request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  const { id } = await params;
  const form = await request.formData().catch(() => new FormData());
  return finishChoice(id, form);
}
