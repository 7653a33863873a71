import { serve } from "inngest/next";
import type { InngestFunction } from "inngest";
import { APP_ID, inngest } from "@/inngest/client";
import { getDb } from "@/lib/db/client";
import { EmbeddedRunner } from "@/lib/jobs/embedded";
import { getEmbeddedSigningKey } from "@/lib/jobs/signing-key";
import { dataDir } from "./isolated-env";

/**
 * An embedded runner for these functions on the test's clock (`now`), quiet, two at a time: how the
 * job tests drive crons and retries without waiting for real time. Not started; call start().
 */
export function clockedRunner(functions: InngestFunction.Any[], now: () => Date): EmbeddedRunner {
  const handler = serve({ client: inngest, functions });
  return new EmbeddedRunner({
    db: getDb(),
    appId: APP_ID,
    functions,
    handler: (req) => handler.POST(req as never, undefined),
    signingKey: getEmbeddedSigningKey(dataDir),
    concurrency: 2,
    pollIntervalMs: 100,
    now,
    reclaimLeasesOnStart: true,
    logger: { info: () => {}, error: () => {} },
  });
}
