-- A workspace may connect several ad accounts of one platform (a Meta account per region, each with its own time zone
-- and currency): the sandbox holds any number of them too, each with its own clock. Only one was allowed per workspace
-- and platform, a rule of the app's old table that nothing here needs.
DROP INDEX IF EXISTS sandbox."sandbox_accounts_workspaceId_platform_key";
CREATE INDEX IF NOT EXISTS "sandbox_accounts_workspaceId_idx" ON sandbox.accounts("workspaceId");
