import { Inngest } from "inngest";
import { getConfig } from "@/lib/services";
import { embeddedClientOptions } from "@adloom/job-runner";
import { embeddedClientHost } from "@/lib/jobs/embedded/client-host";

export const APP_ID = "adloom";

/**
 * The app's Inngest client. With INNGEST_EVENT_KEY / INNGEST_DEV the SDK reads its
 * usual environment variables and Inngest runs the functions; otherwise the embedded
 * runner does (@adloom/job-runner, wired in lib/jobs/embedded).
 */
export const inngest = new Inngest(getConfig().jobs.mode === "embedded" ? embeddedClientOptions(APP_ID, embeddedClientHost) : { id: APP_ID });
