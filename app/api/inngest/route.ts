import { inngestHandler } from "@/inngest/serve";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = inngestHandler.GET;
export const POST = inngestHandler.POST;
export const PUT = inngestHandler.PUT;
