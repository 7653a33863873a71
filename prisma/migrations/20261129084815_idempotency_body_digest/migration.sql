-- AlterTable
ALTER TABLE "idempotency_records" ADD COLUMN     "bodyDigest" TEXT;
