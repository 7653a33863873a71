-- AlterTable
ALTER TABLE "ad_sets" ADD COLUMN     "locationNames" JSONB NOT NULL DEFAULT '{}',
ADD COLUMN     "targetCities" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "targetRegions" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- CreateTable
CREATE TABLE "platform_locations" (
    "platform" "Platform" NOT NULL,
    "type" TEXT NOT NULL,
    "externalId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "countryCode" TEXT,
    "regionName" TEXT,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "platform_locations_pkey" PRIMARY KEY ("platform","type","externalId")
);
