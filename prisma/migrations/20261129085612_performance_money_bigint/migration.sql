-- Money past 2^31 minor units: a VND or IDR account's 30-day sums (and its busiest days) do not fit in a 32-bit integer.
-- AlterTable
ALTER TABLE "ad_daily_insights" ALTER COLUMN "spendMinor" SET DATA TYPE BIGINT,
ALTER COLUMN "conversionValueMinor" SET DATA TYPE BIGINT;

-- AlterTable
ALTER TABLE "ad_hourly_insights" ALTER COLUMN "spendMinor" SET DATA TYPE BIGINT,
ALTER COLUMN "conversionValueMinor" SET DATA TYPE BIGINT;

-- AlterTable
ALTER TABLE "creative_performance" ALTER COLUMN "spendMinor" SET DATA TYPE BIGINT,
ALTER COLUMN "conversionValueMinor" SET DATA TYPE BIGINT;
