import type { Principal } from "@/lib/auth/principal";
import { open, seal } from "@/lib/credentials/sealed";
import { getDb } from "@/lib/db/client";
import { Prisma } from "@/lib/generated/prisma/client";
import { AppError, notFound } from "@/lib/errors";
import { getConfig } from "@/lib/services";
import { configuredUrlPolicy } from "@/lib/webhooks/attempt";
import { postPinned } from "@/lib/webhooks/http-post";
import { isSuccess } from "@/lib/webhooks/send-request";
import { MAX_URL_LENGTH, resolveDeliverableUrl, WebhookUrlError } from "@/lib/webhooks/url-policy";
import { NOTIFICATION_KINDS, type NotificationKind, type SlackChannelView } from "./schemas";

/** The sealed URL is bound to its workspace: copied to another row it does not open. */
const sealContext = (workspaceId: string) => `slack-channel:${workspaceId}`;

/** Shows where messages go without the secret part of an incoming-webhook URL (its path). */
function urlHint(url: URL): string {
  const [first] = url.pathname.split("/").filter(Boolean);
  return `${url.origin}/${first ? `${first}/` : ""}…`;
}

function toView(row: { urlHint: string; disabledKinds: string[]; updatedAt: Date }): SlackChannelView {
  return { urlHint: row.urlHint, kinds: NOTIFICATION_KINDS.filter((k) => !row.disabledKinds.includes(k)), updatedAt: row.updatedAt.toISOString() };
}

export async function getSlackChannel(principal: Principal): Promise<{ slack: SlackChannelView | null }> {
  const row = await getDb().slackChannel.findUnique({ where: { workspaceId: principal.workspaceId } });
  return { slack: row ? toView(row) : null };
}

/**
 * Sets the workspace's Slack channel (an incoming-webhook URL, checked like a webhook endpoint:
 * public HTTPS only) and which kinds it gets (all when not given). The URL is a secret: stored
 * sealed and never shown again.
 */
export async function setSlackChannel(principal: Principal, input: { url?: string; kinds?: NotificationKind[] }): Promise<{ slack: SlackChannelView }> {
  const db = getDb();
  const existing = await db.slackChannel.findUnique({ where: { workspaceId: principal.workspaceId } });
  if (!input.url && !existing) throw new AppError("invalid_request", "url: the workspace has no Slack channel yet; give its incoming-webhook URL");
  const disabledKinds = input.kinds ? NOTIFICATION_KINDS.filter((k) => !input.kinds!.includes(k)) : (existing?.disabledKinds ?? []);
  let sealed: { sealedUrl: string; urlHint: string } | null = null;
  if (input.url) {
    if (input.url.length > MAX_URL_LENGTH) throw new AppError("invalid_request", `url: longer than ${MAX_URL_LENGTH} characters`);
    try {
      const target = await resolveDeliverableUrl(input.url, configuredUrlPolicy());
      sealed = { sealedUrl: seal(input.url, sealContext(principal.workspaceId)), urlHint: urlHint(target.url) };
    } catch (err) {
      if (err instanceof WebhookUrlError) throw new AppError("invalid_request", `url: ${err.message.replace("webhooks go to", "Slack messages go to")}`);
      throw err;
    }
  }
  // Without a new URL only the kinds change (the channel exists: checked above).
  const row = sealed
    ? await db.slackChannel.upsert({
        where: { workspaceId: principal.workspaceId },
        create: { workspaceId: principal.workspaceId, createdById: principal.userId, disabledKinds, ...sealed },
        update: { disabledKinds, ...sealed },
      })
    : await db.slackChannel.update({ where: { workspaceId: principal.workspaceId }, data: { disabledKinds } }).catch((err: unknown) => {
        // Removed between the read above and this write.
        if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2025") throw notFound("Slack channel");
        throw err;
      });
  return { slack: toView(row) };
}

export async function deleteSlackChannel(principal: Principal): Promise<{ ok: true }> {
  const { count } = await getDb().slackChannel.deleteMany({ where: { workspaceId: principal.workspaceId } });
  if (!count) throw notFound("Slack channel");
  return { ok: true };
}

/** The documented incoming-webhook body: `text` (the fallback and notification text) and one block. */
export function slackMessage(title: string, body: string, url: string): { text: string; blocks: unknown[] } {
  const escapeMrkdwn = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  return {
    text: `${title}: ${url}`,
    blocks: [{ type: "section", text: { type: "mrkdwn", text: `*${escapeMrkdwn(title)}*\n${escapeMrkdwn(body)}\n<${url}|Open in Adloom>` } }],
  };
}

/** POSTs one message to the workspace's channel. Throws with the reason when Slack did not take it. */
export async function postToSlack(workspaceId: string, message: { text: string; blocks: unknown[] }): Promise<"sent" | "no_channel"> {
  const row = await getDb().slackChannel.findUnique({ where: { workspaceId } });
  if (!row) return "no_channel";
  const url = open(row.sealedUrl, sealContext(workspaceId)).plaintext;
  let target;
  try {
    target = await resolveDeliverableUrl(url, configuredUrlPolicy());
  } catch (err) {
    throw new Error(`Not sent: ${(err as Error).message}`);
  }
  const outcome = await postPinned(target, { "Content-Type": "application/json", "User-Agent": "Adloom-Notifications/1.0" }, JSON.stringify(message));
  if (!isSuccess(outcome)) throw new Error(outcome.error ?? `Slack answered ${outcome.status}: ${(outcome.responseExcerpt ?? "").slice(0, 200)}`);
  return "sent";
}

/** Posts a test message to the channel now, so an admin sees it arrive (or why not). */
export async function sendSlackTest(principal: Principal): Promise<{ sent: true }> {
  const link = `${getConfig().publicBaseUrl}/dashboard/settings/notifications`;
  try {
    const result = await postToSlack(
      principal.workspaceId,
      slackMessage("Adloom test message", `${principal.userName} connected this channel to ${principal.workspace.name}.`, link),
    );
    if (result === "no_channel") throw notFound("Slack channel");
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw new AppError("upstream_error", (err as Error).message);
  }
  return { sent: true };
}
