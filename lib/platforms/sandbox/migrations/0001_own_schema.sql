-- The sandbox ad platform's tables, in its own PostgreSQL schema "sandbox".
-- On a database that ran the app's migrations before the sandbox had its own, the app's migration
-- 20261126052916_sandbox_leaves_app_schema has moved the old tables (public.sandbox_*) here with
-- their rows; this migration adopts them under their new names. On a new database it creates them.

DO $$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['accounts', 'campaigns', 'ad_sets', 'ads', 'ad_days', 'comments', 'leads', 'media_sessions'] LOOP
    IF to_regclass('sandbox.sandbox_' || t) IS NOT NULL AND to_regclass('sandbox.' || t) IS NULL THEN
      EXECUTE format('ALTER TABLE sandbox.%I RENAME TO %I', 'sandbox_' || t, t);
    END IF;
  END LOOP;
END $$;

-- One sandbox ad account, keyed by the platform's account id, with its simulated clock:
-- simulated time = wall clock + offsetSeconds; delivery has been computed up to deliveredThrough.
CREATE TABLE IF NOT EXISTS sandbox.accounts (
    "externalAccountId" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "platform" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "timeZone" TEXT NOT NULL,
    "offsetSeconds" INTEGER NOT NULL DEFAULT 0,
    "deliveredThrough" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "sandbox_accounts_pkey" PRIMARY KEY ("externalAccountId")
);

CREATE TABLE IF NOT EXISTS sandbox.campaigns (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "clientRef" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "objective" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "sandbox_campaigns_pkey" PRIMARY KEY ("id")
);

CREATE TABLE IF NOT EXISTS sandbox.ad_sets (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "campaignId" TEXT NOT NULL,
    "clientRef" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "budgetType" TEXT NOT NULL,
    "budgetMinor" INTEGER NOT NULL,
    "startTime" TIMESTAMP(3),
    "endTime" TIMESTAMP(3),
    "targeting" JSONB NOT NULL,
    "audienceId" TEXT,
    "audienceSize" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "sandbox_ad_sets_pkey" PRIMARY KEY ("id")
);

CREATE TABLE IF NOT EXISTS sandbox.ads (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "adSetId" TEXT NOT NULL,
    "clientRef" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "mediaId" TEXT NOT NULL,
    "mediaKind" TEXT NOT NULL,
    "headline" TEXT,
    "primaryText" TEXT,
    "description" TEXT,
    "callToAction" TEXT NOT NULL,
    "landingUrl" TEXT NOT NULL,
    "leadFormId" TEXT,
    "quality" DOUBLE PRECISION NOT NULL,
    "impressions" BIGINT NOT NULL DEFAULT 0,
    "reach" INTEGER NOT NULL DEFAULT 0,
    "spendMinor" BIGINT NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "sandbox_ads_pkey" PRIMARY KEY ("id")
);

-- One ad's delivery on one day of the account's time zone.
CREATE TABLE IF NOT EXISTS sandbox.ad_days (
    "adId" TEXT NOT NULL,
    "date" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "adSetId" TEXT NOT NULL,
    "impressions" INTEGER NOT NULL DEFAULT 0,
    "reach" INTEGER NOT NULL DEFAULT 0,
    "clicks" INTEGER NOT NULL DEFAULT 0,
    "spendMinor" INTEGER NOT NULL DEFAULT 0,
    "conversions" INTEGER NOT NULL DEFAULT 0,
    "valueMinor" INTEGER NOT NULL DEFAULT 0,
    "frequency" DOUBLE PRECISION NOT NULL DEFAULT 0,
    CONSTRAINT "sandbox_ad_days_pkey" PRIMARY KEY ("adId","date")
);

-- createdAt is simulated time; parentId is set on replies, byPage on the page's own.
CREATE TABLE IF NOT EXISTS sandbox.comments (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "adId" TEXT NOT NULL,
    "authorName" TEXT NOT NULL,
    "message" TEXT NOT NULL,
    "hidden" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "byPage" BOOLEAN NOT NULL DEFAULT false,
    "deletedAt" TIMESTAMP(3),
    "parentId" TEXT,
    CONSTRAINT "sandbox_comments_pkey" PRIMARY KEY ("id")
);

CREATE TABLE IF NOT EXISTS sandbox.leads (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "formId" TEXT NOT NULL,
    "adId" TEXT,
    "fields" JSONB NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,
    CONSTRAINT "sandbox_leads_pkey" PRIMARY KEY ("id")
);

-- A resumable media upload session (like Meta's start/transfer/finish), counting accepted and repeated chunks.
CREATE TABLE IF NOT EXISTS sandbox.media_sessions (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "accountExternalId" TEXT NOT NULL,
    "platform" TEXT NOT NULL,
    "fileName" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "fileSize" INTEGER NOT NULL,
    "receivedBytes" INTEGER NOT NULL DEFAULT 0,
    "headBase64" TEXT NOT NULL DEFAULT '',
    "chunksAccepted" INTEGER NOT NULL DEFAULT 0,
    "chunksRepeated" INTEGER NOT NULL DEFAULT 0,
    "externalId" TEXT NOT NULL,
    "finishedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "sandbox_media_sessions_pkey" PRIMARY KEY ("id")
);

-- Adopted tables typed these with the app's enums; the sandbox owns no app type.
ALTER TABLE sandbox.accounts ALTER COLUMN "platform" TYPE TEXT USING "platform"::text;
ALTER TABLE sandbox.media_sessions ALTER COLUMN "platform" TYPE TEXT USING "platform"::text, ALTER COLUMN "kind" TYPE TEXT USING "kind"::text;

CREATE UNIQUE INDEX IF NOT EXISTS "sandbox_accounts_workspaceId_platform_key" ON sandbox.accounts("workspaceId", "platform");
CREATE UNIQUE INDEX IF NOT EXISTS "sandbox_campaigns_accountId_clientRef_key" ON sandbox.campaigns("accountId", "clientRef");
CREATE INDEX IF NOT EXISTS "sandbox_ad_sets_campaignId_idx" ON sandbox.ad_sets("campaignId");
CREATE UNIQUE INDEX IF NOT EXISTS "sandbox_ad_sets_accountId_clientRef_key" ON sandbox.ad_sets("accountId", "clientRef");
CREATE INDEX IF NOT EXISTS "sandbox_ads_accountId_status_idx" ON sandbox.ads("accountId", "status");
CREATE INDEX IF NOT EXISTS "sandbox_ads_adSetId_idx" ON sandbox.ads("adSetId");
CREATE UNIQUE INDEX IF NOT EXISTS "sandbox_ads_accountId_clientRef_key" ON sandbox.ads("accountId", "clientRef");
CREATE INDEX IF NOT EXISTS "sandbox_ad_days_accountId_date_idx" ON sandbox.ad_days("accountId", "date");
CREATE INDEX IF NOT EXISTS "sandbox_ad_days_adSetId_date_idx" ON sandbox.ad_days("adSetId", "date");
CREATE INDEX IF NOT EXISTS "sandbox_comments_accountId_createdAt_idx" ON sandbox.comments("accountId", "createdAt");
CREATE INDEX IF NOT EXISTS "sandbox_leads_formId_createdAt_idx" ON sandbox.leads("formId", "createdAt");
CREATE INDEX IF NOT EXISTS "sandbox_media_sessions_workspaceId_idx" ON sandbox.media_sessions("workspaceId");
CREATE INDEX IF NOT EXISTS "sandbox_media_sessions_externalId_idx" ON sandbox.media_sessions("externalId");
