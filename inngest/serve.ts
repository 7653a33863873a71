import { serve } from "inngest/next";
import { APP_ID, inngest } from "@/inngest/client";
import { functions } from "@/inngest/functions";
import { getConfig } from "@/lib/services";
import type { AppJobs } from "@/lib/jobs/embedded";

/**
 * The one serve handler: app/api/inngest exports it and the embedded runner calls its
 * POST in-process. In embedded mode even sync (PUT) needs a signature: nobody outside
 * the process has a reason to call it.
 */
export const inngestHandler = serve({
  client: inngest,
  functions,
  ...(getConfig().jobs.mode === "embedded" ? { enableUnauthedSync: false } : {}),
});

type NextHandlerRequest = Parameters<typeof inngestHandler.POST>[0];

/** Calls the handler's POST with a plain web Request (what the embedded runner does). */
export function postToInngestHandler(req: Request): Promise<Response> {
  return inngestHandler.POST(req as unknown as NextHandlerRequest, undefined);
}

/** The app's jobs as the embedded runner takes them. */
export const appJobs: AppJobs = { appId: APP_ID, functions, handler: postToInngestHandler };
