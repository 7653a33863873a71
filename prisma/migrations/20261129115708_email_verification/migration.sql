-- AlterTable
ALTER TABLE "invites" ADD COLUMN     "mailProofHash" TEXT;

-- AlterTable
ALTER TABLE "users" ADD COLUMN     "emailVerifiedAt" TIMESTAMP(3);

-- Existing users (docs/decisions.md): an account without a password was made by Google or GitHub sign-in or by an
-- operator, and can only be entered by proving the mailbox (OAuth, or a password set through the mailed reset link),
-- so it counts as verified. Every account with a password starts unverified, whatever its invite history: the invite
-- link was also shown to its sender, so accepting it proved nothing about the address.
UPDATE "users" SET "emailVerifiedAt" = "createdAt" WHERE "passwordHash" IS NULL;

-- CreateTable
CREATE TABLE "email_verifications" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "usedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "email_verifications_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "email_verifications_tokenHash_key" ON "email_verifications"("tokenHash");

-- CreateIndex
CREATE INDEX "email_verifications_userId_idx" ON "email_verifications"("userId");

-- AddForeignKey
ALTER TABLE "email_verifications" ADD CONSTRAINT "email_verifications_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
