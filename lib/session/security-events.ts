import { getDb, sqlOf } from "@/lib/db/client";
import type { Prisma } from "@/lib/generated/prisma/client";
import { currentClientAddress } from "@/lib/observability/client-address";
import { currentBrowserSummary } from "@/lib/observability/user-agent";
import { newId } from "@/lib/ids";
import { enqueueInTransaction } from "@/lib/jobs/outbox";
import { log } from "@/lib/log";
import type { RevokedAccess } from "./unconfirmed-access";

/**
 * The account's security activity (docs/decisions.md, "Security activity"): what its user sees on the Security page,
 * kept SECURITY_EVENT_KEEP_DAYS. A change records its event in its own transaction; the changes a person would want to
 * hear about at once (NOTIFIED_KINDS) also store, in that transaction, the job event that emails the account's
 * address (lib/session/security-notice.ts), so the request does not wait on the mail server.
 */
export type SecurityEventKind =
  | "signed_in"
  | "password_changed"
  | "password_reset"
  | "password_set_by_operator"
  | "two_factor_on"
  | "two_factor_off"
  | "recovery_code_used"
  | "sessions_ended"
  | "email_confirmed";
/** How a sign-in was made. */
export type SignInMethod = "password" | "password_totp" | "password_recovery_code" | "google" | "github";
export type SecurityActor = "user" | "operator";

export const SECURITY_EVENT_KEEP_DAYS = 90;
/** The kinds that email the account's address (never an ordinary sign-in). */
export const NOTIFIED_KINDS: readonly SecurityEventKind[] = ["password_changed", "password_reset", "password_set_by_operator", "two_factor_off"];
/** The job event that emails one security notice (inngest/functions/security-notice-email.ts). */
export const SECURITY_NOTICE_EMAIL_EVENT = "session/security-notice-email";

export interface SecurityEventInput {
  userId: string;
  kind: SecurityEventKind;
  method?: SignInMethod;
  /** "operator" for the operator CLI: no address or browser is recorded then (the CLI is not the user's client). */
  actor?: SecurityActor;
  /** password_reset of an unconfirmed address: what it revoked (recorded only when it revoked something). */
  revoked?: RevokedAccess;
}

type SecurityTx = Pick<Prisma.TransactionClient, "securityEvent" | "$queryRawUnsafe">;

const revokedAnything = (revoked: RevokedAccess | undefined): revoked is RevokedAccess => !!revoked && revoked.apiKeys + revoked.appConnections > 0;

/** What the event's row says it revoked, or null. */
export function revokedAccessOf(row: { revokedApiKeys: number | null; revokedAppConnections: number | null }): RevokedAccess | null {
  const revoked = { apiKeys: row.revokedApiKeys ?? 0, appConnections: row.revokedAppConnections ?? 0 };
  return revokedAnything(revoked) ? revoked : null;
}

/**
 * Records the event in the caller's transaction `tx`, with the address and browser of the request being served.
 * Returns what to call once the transaction has committed (it wakes the job runner, or sends the job event to
 * Inngest); it never throws: the change is made, and a notice that could not be started is logged.
 */
export async function recordSecurityEvent(tx: SecurityTx, input: SecurityEventInput): Promise<() => Promise<void>> {
  const actor = input.actor ?? "user";
  const id = newId("sev");
  const address = actor === "user" ? currentClientAddress() : "unknown";
  await tx.securityEvent.create({
    data: {
      id,
      userId: input.userId,
      kind: input.kind,
      method: input.method ?? null,
      actor,
      address: address === "unknown" ? null : address,
      userAgent: actor === "user" ? currentBrowserSummary() : null,
      ...(revokedAnything(input.revoked) ? { revokedApiKeys: input.revoked.apiKeys, revokedAppConnections: input.revoked.appConnections } : {}),
    },
  });
  if (!NOTIFIED_KINDS.includes(input.kind)) return async () => undefined;
  const wake = await enqueueInTransaction(sqlOf(tx), [{ id: `security-notice-${id}`, name: SECURITY_NOTICE_EMAIL_EVENT, data: { securityEventId: id } }]);
  return async () => {
    try {
      await wake();
    } catch (err) {
      log.warn("could not start the security notice email", { component: "security", userId: input.userId, kind: input.kind, err });
    }
  };
}

/**
 * Records an event that has no change of its own to share a transaction with (a sign-in): a failure is logged, never
 * thrown, so the record can never keep a person out of their account.
 */
export async function recordSecurityEventQuietly(input: SecurityEventInput): Promise<void> {
  try {
    await (await recordSecurityEvent(getDb(), input))();
  } catch (err) {
    log.warn("could not record a security event", { component: "security", userId: input.userId, kind: input.kind, err });
  }
}

export interface SecurityEventView {
  id: string;
  kind: SecurityEventKind;
  method: SignInMethod | null;
  actor: SecurityActor;
  address: string | null;
  browser: string | null;
  /** A password reset of an unconfirmed address: the API keys and app connections it revoked; else null. */
  revoked: RevokedAccess | null;
  at: string;
}

/** The user's most recent security events, newest first. */
export async function listSecurityEvents(userId: string, limit = 20): Promise<SecurityEventView[]> {
  const rows = await getDb().securityEvent.findMany({ where: { userId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: limit });
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind as SecurityEventKind,
    method: r.method as SignInMethod | null,
    actor: r.actor as SecurityActor,
    address: r.address,
    browser: r.userAgent,
    revoked: revokedAccessOf(r),
    at: r.createdAt.toISOString(),
  }));
}
