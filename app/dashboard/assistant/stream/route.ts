// The Assistant page's streamed answers (lib/dashboard/assistant-stream.ts): an HTTP route of the dashboard.
export { POST } from "@/lib/dashboard/assistant-stream";

export const dynamic = "force-dynamic";
