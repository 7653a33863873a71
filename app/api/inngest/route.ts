import { inngestHandler } from "@/lib/jobs/serve-handler";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = inngestHandler.GET;
export const POST = inngestHandler.POST;
export const PUT = inngestHandler.PUT;
