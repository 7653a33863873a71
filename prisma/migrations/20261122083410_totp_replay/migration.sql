-- CreateTable
CREATE TABLE "totp_uses" (
    "userId" TEXT NOT NULL,
    "lastStep" BIGINT NOT NULL,

    CONSTRAINT "totp_uses_pkey" PRIMARY KEY ("userId")
);

-- AddForeignKey
ALTER TABLE "totp_uses" ADD CONSTRAINT "totp_uses_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
