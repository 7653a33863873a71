import { type Platform, PlatformError } from "./types";

/** What a moderator may try on a comment other than deleting it. */
export type CommentGoneAction = "hidden" | "shown" | "replied to";

/**
 * A comment the platform no longer has (deleted by its author or on the platform) cannot be hidden, shown or replied
 * to: a terminal refusal that says so, and that deleting it from the inbox (a delete of a gone comment succeeds) is
 * what clears it. `deletedWhere` names the place people delete it ("on the Page", "on TikTok").
 */
export const commentGoneRefusal = (platform: Platform, commentId: string, deletedWhere: string, action: CommentGoneAction) =>
  new PlatformError(
    "invalid_input",
    `${platform} no longer has comment ${commentId} (deleted by its author or ${deletedWhere}), so it cannot be ${action}: delete it from the inbox`,
    { retryable: false },
  );
