-- The sandbox ad platform leaves the app's schema: it keeps its own tables in the PostgreSQL schema
-- "sandbox", with its own migrations (lib/platforms/sandbox/migrations, applied after these at every
-- start). Its tables move there with every row; the sandbox's first migration adopts them under its
-- own names. Nothing is dropped.

-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "sandbox";

-- MoveTable
ALTER TABLE IF EXISTS "sandbox_accounts" SET SCHEMA "sandbox";

-- MoveTable
ALTER TABLE IF EXISTS "sandbox_ad_days" SET SCHEMA "sandbox";

-- MoveTable
ALTER TABLE IF EXISTS "sandbox_ad_sets" SET SCHEMA "sandbox";

-- MoveTable
ALTER TABLE IF EXISTS "sandbox_ads" SET SCHEMA "sandbox";

-- MoveTable
ALTER TABLE IF EXISTS "sandbox_campaigns" SET SCHEMA "sandbox";

-- MoveTable
ALTER TABLE IF EXISTS "sandbox_comments" SET SCHEMA "sandbox";

-- MoveTable
ALTER TABLE IF EXISTS "sandbox_leads" SET SCHEMA "sandbox";

-- MoveTable
ALTER TABLE IF EXISTS "sandbox_media_sessions" SET SCHEMA "sandbox";
