-- A password reset that proves an unconfirmed address revokes the API keys and app connections made before it
-- (lib/session/unconfirmed-access.ts); its security event counts them. Older events revoked nothing: null.
-- AlterTable
ALTER TABLE "security_events" ADD COLUMN "revokedApiKeys" INTEGER,
ADD COLUMN "revokedAppConnections" INTEGER;
