/**
 * The session and account boundary: what a signed-in (or signing-in) person does for
 * themselves rather than as a member using a workspace capability, so it is not a tool of the
 * catalog and no API key can do it (docs/decisions.md): signing up and in, password reset and
 * change, email verification, two-factor enrolment, ending sessions, profile, creating or joining or switching
 * workspaces, accepting an invite, their own API keys and connected apps, OAuth consent. Every
 * workspace capability goes through a tool instead (lib/dashboard/tool-action.ts); pages read
 * through lib/read-models.
 */
import { getConfig } from "@/lib/services";

export { signUp } from "@/lib/session/accounts";
export { completePasswordReset, findPasswordReset, requestPasswordReset } from "@/lib/session/password-reset";
export {
  confirmEmailVerification,
  emailVerificationStatus,
  type EmailVerificationStatus,
  findEmailVerification,
  sendEmailVerification,
  VERIFY_TTL_HOURS,
} from "@/lib/session/email-verification";
export { confirmTwoFactorEnrolment, disableTwoFactor, remainingRecoveryCodes, startTwoFactorEnrolment } from "@/lib/session/two-factor";
export { revokeSessions } from "@/lib/session/revocation";
export { listSecurityEvents, type SecurityEventView } from "@/lib/session/security-events";
export { revokedAccessInWords } from "@/lib/session/unconfirmed-access";
export { changePassword, createOwnWorkspace, getProfile, type Profile, updateProfile, userTimeZone } from "@/lib/account/profile";
export { isActiveMember, listUserWorkspaces } from "@/lib/workspaces/switcher";
export { acceptInvite, acceptInviteWithNewAccount, getInvite, type InviteDetails } from "@/lib/team/invites";
// A member's own API keys and OAuth connections: credentials, which a key must not mint.
export { type ApiKeySummary, createApiKeyFor, grantableScopes, listApiKeys, revokeApiKeyFor } from "@/lib/api-keys/manage";
export { type ConnectedApp, listConnectedApps, revokeConnectedApp } from "@/lib/oauth/connected-apps";
export {
  AUTHORIZATION_PARAM_NAMES,
  readAuthorizationParams,
  validateAuthorizationRequest,
  type ValidAuthorizationRequest,
} from "@/lib/oauth/authorization-request";
export { type ConsentWorkspace, consentWorkspaces } from "@/lib/oauth/consent";
export { isOAuthError } from "@/lib/oauth/errors";

/** The OAuth sign-in providers configured for this installation. */
export function signInProviders(): { id: string; name: string }[] {
  const { oauth } = getConfig();
  return [oauth.github && { id: "github", name: "GitHub" }, oauth.google && { id: "google", name: "Google" }].filter(Boolean) as { id: string; name: string }[];
}

/** Where this server's email goes ("outbox": no SMTP server; pages then say the message waits there). */
export { mailTransport } from "@/lib/mail/send-mail";
