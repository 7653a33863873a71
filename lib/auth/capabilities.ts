import type { Permission } from "./roles";
import type { Scope } from "./scopes";

/**
 * The one table of what every endpoint and tool needs.
 *
 * - `permission`: what the key's creator's role must allow.
 * - `scopes`: what a scoped key must carry (all of them). `[]` means any key of a
 *   member with the permission may do it (reads of the library and account);
 *   `"unscoped"` means only unscoped keys (workspace administration, which no
 *   scope names).
 * - Media downloads are authorized by object ownership and are not listed here.
 *
 * docs/permissions.md is this table in prose; keep them together.
 */
export interface Capability {
  permission: Permission;
  scopes: Scope[] | "unscoped";
  summary: string;
}

export const CAPABILITIES = {
  "account.read": { permission: "account.read", scopes: [], summary: "GET /api/v1/me" },

  "uploads.list": { permission: "library.read", scopes: [], summary: "GET /api/v1/uploads, GET /api/v1/uploads/{id}" },
  "uploads.create": { permission: "uploads.write", scopes: ["upload", "publish"], summary: "POST /api/v1/uploads" },
  "uploads.retry": { permission: "uploads.write", scopes: ["publish"], summary: "POST /api/v1/uploads/{id}" },
  "uploads.dismiss": { permission: "uploads.write", scopes: ["publish"], summary: "DELETE /api/v1/uploads/{id}" },

  "creatives.list": { permission: "library.read", scopes: [], summary: "GET /api/v1/creatives" },
  "creatives.delete": { permission: "library.delete", scopes: ["delete"], summary: "DELETE /api/v1/creatives" },
  "creatives.move": { permission: "library.write", scopes: ["upload"], summary: "Moving creatives between library folders" },
  "naming.read": { permission: "library.read", scopes: [], summary: "Reading the workspace's file-name convention" },
  "naming.write": { permission: "library.write", scopes: ["edit"], summary: "Setting the workspace's file-name convention (labels of new creatives)" },

  "copy.list": { permission: "library.read", scopes: [], summary: "GET /api/v1/creatives/{id}/copy" },
  "copy.write": { permission: "library.write", scopes: ["edit"], summary: "POST /api/v1/creatives/{id}/copy" },
  "copy.delete": { permission: "library.delete", scopes: ["edit"], summary: "DELETE /api/v1/creatives/{id}/copy" },

  "folders.list": { permission: "library.read", scopes: [], summary: "Listing library folders" },
  "folders.write": { permission: "library.write", scopes: ["upload"], summary: "Creating and renaming folders" },
  "folders.delete": { permission: "library.delete", scopes: ["delete"], summary: "Deleting folders" },

  "webhooks.read": { permission: "webhooks.manage", scopes: "unscoped", summary: "GET /api/v1/webhooks, GET /api/v1/webhooks/deliveries" },
  "webhooks.write": {
    permission: "webhooks.manage",
    scopes: "unscoped",
    summary: "PUT/PATCH/DELETE /api/v1/webhooks, POST /api/v1/webhooks/test, POST /api/v1/webhooks/deliveries/{id}",
  },

  "notifications.self": {
    permission: "account.read",
    scopes: [],
    summary: "Reading and choosing one's own notifications (what the key's creator gets by email)",
  },
  "notifications.slack.read": { permission: "webhooks.manage", scopes: "unscoped", summary: "Reading the workspace's Slack channel for notifications" },
  "notifications.slack.write": {
    permission: "webhooks.manage",
    scopes: "unscoped",
    summary: "Setting, testing and removing the workspace's Slack channel for notifications",
  },

  "team.manage": { permission: "team.manage", scopes: "unscoped", summary: "Inviting members, changing their role and folder access, removing them" },
  "billing.manage": { permission: "billing.manage", scopes: "unscoped", summary: "Subscribing to and cancelling the paid plan" },

  "tools.list": { permission: "account.read", scopes: [], summary: "GET /api/v1/tools (each tool then checks its own capability)" },

  "review.comment": { permission: "review.comment", scopes: ["comment"], summary: "Commenting on creatives" },
  "review.approve": { permission: "review.approve", scopes: ["review"], summary: "Approving creatives and requesting changes" },
  "review.share": { permission: "review.share", scopes: ["share"], summary: "Creating external review links" },
  "review.version": { permission: "uploads.write", scopes: ["upload"], summary: "Adding a new version of a creative" },

  "ads.read": {
    permission: "ads.read",
    scopes: ["ads_view"],
    summary: "Viewing ad accounts, campaigns, ad sets, ads, drafts, audiences and results (ads tools list_*/get_*)",
  },
  "ads.write": {
    permission: "ads.write",
    scopes: ["ads"],
    summary: "Creating and editing campaigns, ad sets and ads (all created paused), building from the library, drafts, pausing",
  },
  "ads.launch": { permission: "ads.launch", scopes: ["launch"], summary: "Activating ads, ad sets and campaigns and changing budgets (spends money)" },
  "ads.delete": { permission: "ads.delete", scopes: ["ads_delete"], summary: "Deleting ads, ad sets and campaigns" },
  "leads.export": {
    permission: "leads.export",
    scopes: ["ads_view"],
    summary: "Exporting lead-ad submissions (names, emails) as CSV: owners, admins and editors; not viewers",
  },
  // The same people's details a page (or a lead) at a time: the export's permission and scope, so paging
  // through list_leads is no way around it. The forms and their counts (list_lead_forms) stay ads.read.
  "leads.read": {
    permission: "leads.export",
    scopes: ["ads_view"],
    summary: "Reading lead-ad submissions (names, emails): list_leads, get_lead, the Leads page's list; owners, admins and editors, not viewers",
  },
  // Pulling leads now stores people's details (a write): the permission that guards them, so viewers may not set it
  // off. The scope stays ads_view, every lead action's, so the keys that pulled with it before still do.
  "leads.pull": {
    permission: "leads.export",
    scopes: ["ads_view"],
    summary: "Pulling lead-ad submissions from the platform now (pull_leads, the Leads page's Check for new leads): owners, admins and editors, not viewers",
  },
  "adaccounts.read": { permission: "ads.read", scopes: ["ads_view"], summary: "Listing the workspace's ad account connections (accounts tools)" },
  "adaccounts.manage": {
    permission: "ads.launch",
    scopes: "unscoped",
    summary: "Connecting, disconnecting and choosing the default ad account (a connected account spends its money; workspace administration)",
  },
  "comments.moderate": { permission: "comments.moderate", scopes: ["moderate"], summary: "Moderating comments on published ads" },
  "rules.manage": { permission: "rules.manage", scopes: ["rules"], summary: "Managing automation rules" },
  "imports.run": { permission: "imports.run", scopes: ["import"], summary: "Importing from external file storage" },
  "ai.use": { permission: "ai.use", scopes: ["ai"], summary: "The AI assistant" },
  "tasks.read": { permission: "tasks.read", scopes: [], summary: "Reading tasks" },
  "tasks.write": { permission: "tasks.write", scopes: ["edit"], summary: "Creating, assigning and commenting on tasks" },
  "boards.read": { permission: "library.read", scopes: [], summary: "Viewing boards (as viewing creatives)" },
  "boards.write": { permission: "library.write", scopes: ["edit"], summary: "Creating, arranging and changing boards" },
  "boards.annotate": { permission: "review.comment", scopes: ["edit"], summary: "Annotating creative cards on boards (each becomes a review comment)" },
} as const satisfies Record<string, Capability>;

export type CapabilityId = keyof typeof CAPABILITIES;
