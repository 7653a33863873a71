/**
 * Choosing the default ad account at once from several requests (two Set default clicks, connects with
 * makeDefault): every request is answered, and exactly one account per platform is the default. Runs on
 * PostgreSQL too (vitest.config.ts DATABASE_DEPENDENT), where the requests really overlap. Meta is the wire
 * fake tests/helpers/fake-meta.ts.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTenant } from "../helpers/fixtures";
import { type FakeMeta, fakeMeta } from "../helpers/fake-meta";
import { freshDatabaseUrl } from "../helpers/fresh-database";
import { migratedDataDir, startServer, type TestServer } from "../helpers/server";
import { callTool } from "../tools/helpers";

const ACCOUNTS = ["act_401", "act_402", "act_403"];
let meta: FakeMeta;
let server: TestServer;
const dataDir = await migratedDataDir("default-concurrency");

beforeAll(async () => {
  meta = await fakeMeta({
    version: "v24.0",
    appId: "meta-app",
    appSecret: "meta-secret",
    accounts: Object.fromEntries(ACCOUNTS.map((id) => [id, { name: id, currency: "USD", timezone_name: "America/Chicago", account_status: 1 }])),
  });
  meta.grant("default-token", ACCOUNTS);
  const databaseUrl = await freshDatabaseUrl("default_concurrency");
  server = await startServer({
    dataDir,
    ...(databaseUrl ? { databaseUrl } : {}),
    env: {
      PLATFORM_A_API_URL: meta.url,
      PLATFORM_A_API_VERSION: "v24.0",
      PLATFORM_A_APP_ID: "meta-app",
      PLATFORM_A_APP_SECRET: "meta-secret",
      LEADS_POLL: "0",
    },
  });
}, 180_000);

afterAll(async () => {
  await server?.stop();
  await meta?.close();
});

it("many default changes at once: each is answered 200, one account is the default", async () => {
  const t = await createTenant({ dataDir: server.dataDir });
  const call = (name: string, args: unknown = {}) => callTool(t.key, name, args, {}, server.url);
  const connected = await Promise.all(
    ACCOUNTS.map((externalAccountId) =>
      call("connect_ad_account", { platform: "platform_a", externalAccountId, accessToken: "default-token", makeDefault: true }),
    ),
  );
  expect(connected.map((c) => c.status)).toEqual([200, 200, 200]);
  const ids = connected.map((c) => c.body.result.adAccount.id as string);

  const answers = await Promise.all(Array.from({ length: 24 }, (_, i) => call("set_default_ad_account", { id: ids[i % 3] })));
  expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
  const listed = (await call("list_connected_ad_accounts")).body.result.adAccounts.filter((a: any) => a.platform === "platform_a");
  expect(listed.filter((a: any) => a.isDefault)).toHaveLength(1);
}, 60_000);
