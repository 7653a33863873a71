-- Announce every change that can alter what an API key may do, so a process that
-- caches resolved keys drops them at once (LISTEN adloom_auth_changed).
-- Hand-written: triggers are not part of the Prisma schema.
CREATE FUNCTION adloom_notify_auth_changed() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('adloom_auth_changed', '');
  RETURN NULL;
END
$$ LANGUAGE plpgsql;

-- lastUsedAt is bookkeeping, not access: updates of it alone stay silent.
CREATE TRIGGER api_keys_auth_changed
  AFTER INSERT OR DELETE OR UPDATE OF "revokedAt", "scopes", "workspaceId", "createdById", "hashedKey" ON "api_keys"
  FOR EACH STATEMENT EXECUTE FUNCTION adloom_notify_auth_changed();
CREATE TRIGGER workspaces_auth_changed
  AFTER INSERT OR DELETE OR UPDATE ON "workspaces"
  FOR EACH STATEMENT EXECUTE FUNCTION adloom_notify_auth_changed();
CREATE TRIGGER users_auth_changed
  AFTER INSERT OR DELETE OR UPDATE ON "users"
  FOR EACH STATEMENT EXECUTE FUNCTION adloom_notify_auth_changed();
CREATE TRIGGER memberships_auth_changed
  AFTER INSERT OR DELETE OR UPDATE ON "memberships"
  FOR EACH STATEMENT EXECUTE FUNCTION adloom_notify_auth_changed();
CREATE TRIGGER membership_folders_auth_changed
  AFTER INSERT OR DELETE OR UPDATE ON "membership_folders"
  FOR EACH STATEMENT EXECUTE FUNCTION adloom_notify_auth_changed();
CREATE TRIGGER folders_auth_changed
  AFTER DELETE ON "folders"
  FOR EACH STATEMENT EXECUTE FUNCTION adloom_notify_auth_changed();
