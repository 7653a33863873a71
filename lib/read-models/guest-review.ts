/**
 * What a review link's guest page reads: the link (by token, rate limited), whether this
 * browser has passed its password, and the creatives it shares. Opening the page records the
 * view (review.link_viewed, at most once per 6 hours per link): the guest's one side effect.
 */
export { guestView, hasAccess, openLink, type GuestCreative, type GuestView } from "@/lib/review/guest";
export { guestPassCookie } from "@/lib/review/guest-signing";
export { recordLinkView } from "@/lib/review/link-views";
export { guestBoard } from "@/lib/boards/share";
