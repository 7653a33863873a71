import { getDb } from "@/lib/db/client";
import { conflict } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { log } from "@/lib/log";

/**
 * One evaluation of a rule at a time, whoever starts it (the hourly job, `admin automation run`, a retried
 * step, another instance): the rule's evaluation slot is a row of `automation_rule_evaluations`, taken with a
 * conditional write (an insert that skips an existing row, or an update of a row whose lease ran out), so it
 * works alike on PGlite and on PostgreSQL's many connections, and no transaction is held across the
 * platform calls. The holder's heartbeat keeps the lease ahead while it runs, however slow the platform; a
 * process killed mid-run leaves the slot for LEASE_MS at most, and the next evaluation takes it over (and
 * finishes the run it left, lib/automation/run.ts).
 */
export const LEASE_MS = 30_000;
const HEARTBEAT_MS = 10_000;
/** How long a second evaluation waits for the slot: past a lease, so a killed holder never makes it fail. */
export const WAIT_MS = 45_000;
const POLL_MS = 100;

export interface EvaluationSlot {
  /** Throws unless the slot is still this evaluation's (checked, and the lease moved, in one write). */
  hold(): Promise<void>;
  release(): Promise<void>;
}

async function take(ruleId: string, holder: string): Promise<boolean> {
  const db = getDb();
  const leaseUntil = new Date(Date.now() + LEASE_MS);
  const created = await db.automationRuleEvaluation.createMany({ data: [{ ruleId, holder, leaseUntil }], skipDuplicates: true });
  if (created.count === 1) return true;
  const expired = await db.automationRuleEvaluation.updateMany({ where: { ruleId, leaseUntil: { lt: new Date() } }, data: { holder, leaseUntil } });
  return expired.count === 1;
}

async function renew(ruleId: string, holder: string): Promise<boolean> {
  const { count } = await getDb().automationRuleEvaluation.updateMany({
    where: { ruleId, holder },
    data: { leaseUntil: new Date(Date.now() + LEASE_MS) },
  });
  return count === 1;
}

/**
 * Takes the rule's evaluation slot, waiting up to WAIT_MS while another evaluation holds it; past that, a
 * `conflict` naming the rule. Release it in a `finally`.
 */
export async function takeEvaluationSlot(ruleId: string, waitMs = WAIT_MS): Promise<EvaluationSlot> {
  const holder = newId("reval");
  const deadline = Date.now() + waitMs;
  while (!(await take(ruleId, holder))) {
    if (Date.now() >= deadline)
      throw conflict(
        `Another evaluation of rule ${ruleId} is still acting after ${Math.round(waitMs / 1000)} s of waiting for it; its run is in the rule's run log when it ends`,
      );
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  let lost = false;
  const heartbeat = setInterval(() => {
    renew(ruleId, holder).then(
      (held) => {
        if (!held) lost = true;
      },
      (err) => log.warn("automation rule slot renewal failed", { ruleId, error: err instanceof Error ? err.message : String(err) }),
    );
  }, HEARTBEAT_MS);
  heartbeat.unref();
  return {
    async hold() {
      if (lost || !(await renew(ruleId, holder))) {
        lost = true;
        throw conflict(`The evaluation of rule ${ruleId} lost its slot to another (its lease ran out); that one finishes the run`);
      }
    },
    async release() {
      clearInterval(heartbeat);
      // A failed release is not the evaluation's failure: the lease runs out on its own.
      await getDb()
        .automationRuleEvaluation.deleteMany({ where: { ruleId, holder } })
        .catch((err) => log.warn("automation rule slot release failed", { ruleId, error: err instanceof Error ? err.message : String(err) }));
    },
  };
}
