// Google Drive and Dropbox through the real stack: a server whose providers are local wire fakes
// (GOOGLE_OAUTH_TOKEN_URL, GOOGLE_DRIVE_API_URL, DROPBOX_API_URL, DROPBOX_CONTENT_URL). Connect by
// the dashboard's OAuth flow, browse, one-off import, watched folders synced incrementally (Drive's
// changes feed, Dropbox's cursor), a renamed copy skipped by the provider's checksum, an expired
// token refreshed, a revoked one shown and answering not_connected, a disconnect revoking the tokens at
// the provider (and still disconnecting when the provider does not confirm).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { admin } from "../helpers/fixtures";
import { allCreatives, waitFor } from "../helpers/library";
import { jpegImage, pngImage } from "../helpers/media-fixtures";
import { migratedDataDir, startServer, type TestServer } from "../helpers/server";
import { type DriveFake, type DropboxFake, startDriveFake, startDropboxFake } from "../helpers/storage-fakes";
import { callTool } from "../tools/helpers";
import { cookieHeader, signIn } from "../dashboard/session";

let drive: DriveFake;
let dropbox: DropboxFake;
let server: TestServer;
let key: string;
let jar: Map<string, string>;
const dataDir = await migratedDataDir("cloud-import");

beforeAll(async () => {
  drive = await startDriveFake({ clientId: "drive-client.apps.googleusercontent.com", clientSecret: "drive-secret" });
  dropbox = await startDropboxFake({ appKey: "dbx-key", appSecret: "dbx-secret" });
  server = await startServer({
    dataDir,
    env: {
      GOOGLE_DRIVE_CLIENT_ID: "drive-client.apps.googleusercontent.com",
      GOOGLE_DRIVE_CLIENT_SECRET: "drive-secret",
      GOOGLE_OAUTH_TOKEN_URL: drive.tokenUrl,
      GOOGLE_OAUTH_REVOKE_URL: drive.revokeUrl,
      GOOGLE_DRIVE_API_URL: drive.apiUrl,
      GOOGLE_DRIVE_PICKER_API_KEY: "picker-browser-key",
      GOOGLE_DRIVE_APP_ID: "123456789012",
      DROPBOX_APP_KEY: "dbx-key",
      DROPBOX_APP_SECRET: "dbx-secret",
      DROPBOX_API_URL: dropbox.apiUrl,
      DROPBOX_CONTENT_URL: dropbox.contentUrl,
      LEADS_POLL: "0",
      // The syncs are the test's own: one from the quarter-hour schedule at the same moment would import what they expect to.
      IMPORT_SYNC: "0",
    },
  });
  const email = `cloud-${Date.now()}@example.com`;
  const { workspaceId, ownerUserId } = await admin<any>(["workspace", "create", "--name", "Cloud Co", "--plan", "pro", "--owner-email", email], server.dataDir);
  await admin(["user", "password", "--email", email, "--password", "a long enough password"], server.dataDir);
  key = (await admin<any>(["key", "create", "--workspace", workspaceId, "--user", ownerUserId], server.dataDir)).key;
  ({ jar } = await signIn(email, "a long enough password", "", server.url));
}, 180_000);

afterAll(async () => {
  await server?.stop();
  await drive?.close();
  await dropbox?.close();
});

const tool = (name: string, args: unknown = {}) => callTool(key, name, args, {}, server.url);
async function result(name: string, args: unknown = {}): Promise<any> {
  const res = await tool(name, args);
  if (res.status !== 200) throw new Error(`${name} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.result;
}
const finished = (runId: string) =>
  waitFor(
    `import run ${runId}`,
    async () => {
      const { runs } = await result("list_import_runs", { runId });
      return runs[0].status !== "running" && runs[0].items.every((i: any) => i.status !== "imported" || i.creativeId) ? runs[0] : undefined;
    },
    60_000,
  );

/** The browser's side of the Connect button: start, the provider's consent (a code from the fake), the callback. */
async function get(path: string) {
  const res = await fetch(server.url + path, { headers: { Cookie: cookieHeader(jar) }, redirect: "manual" });
  for (const line of res.headers.getSetCookie()) {
    const [pair] = line.split(";");
    const i = pair!.indexOf("=");
    jar.set(pair!.slice(0, i).trim(), pair!.slice(i + 1));
  }
  return { status: res.status, location: new URL(res.headers.get("location") ?? "", server.url) };
}

async function connect(provider: "google_drive" | "dropbox", code: string): Promise<string> {
  const start = await get(`/api/import/oauth/${provider}/start`);
  expect(start.status).toBe(303);
  const state = start.location.searchParams.get("state")!;
  const back = await get(`/api/import/oauth/${provider}/callback?code=${encodeURIComponent(code)}&state=${state}`);
  expect(back.location.pathname).toBe("/dashboard/import");
  expect(back.location.searchParams.get("error")).toBeNull();
  return back.location.searchParams.get("connected")!;
}

const downloads = (fake: DriveFake | DropboxFake) =>
  fake.requests.filter((r) => (r.path === "/2/files/download" || r.query.get("alt") === "media") && r.method !== "OPTIONS").length;

describe("Google Drive", () => {
  let connectionId: string;
  let spring: string;
  let hero: string;
  let square: string;

  it("connects by OAuth with the drive.file scope: consent page, callback, code exchanged at the token endpoint, tokens sealed", async () => {
    spring = drive.addFolder("Spring");
    hero = drive.addFile("hero.png", await pngImage(120, 80), spring, "image/png");
    square = drive.addFile("square.jpg", await jpegImage(90, 90), spring, "image/jpeg");
    drive.addFile("Brief", Buffer.alloc(0), spring, "application/vnd.google-apps.document");

    const start = await get("/api/import/oauth/google_drive/start");
    expect(`${start.location.origin}${start.location.pathname}`).toBe("https://accounts.google.com/o/oauth2/v2/auth");
    expect(Object.fromEntries(start.location.searchParams)).toMatchObject({
      client_id: "drive-client.apps.googleusercontent.com",
      response_type: "code",
      scope: "https://www.googleapis.com/auth/drive.file",
      access_type: "offline",
    });
    expect(start.location.searchParams.get("redirect_uri")).toMatch(/\/api\/import\/oauth\/google_drive\/callback$/);
    // A callback whose state is not this browser's is refused; nothing is connected.
    const forged = await get(`/api/import/oauth/google_drive/callback?code=${drive.issueCode()}&state=forged`);
    expect(forged.location.searchParams.get("error")).toMatch(/could not be matched/);
    // The person declined on Google's page.
    const again = await get("/api/import/oauth/google_drive/start");
    const declined = await get(`/api/import/oauth/google_drive/callback?error=access_denied&state=${again.location.searchParams.get("state")}`);
    expect(declined.location.searchParams.get("error")).toMatch(/access_denied/);

    connectionId = await connect("google_drive", drive.issueCode());
    const exchange = drive.requests.find((r) => r.path === "/token" && r.body.includes("authorization_code"))!;
    expect(new URLSearchParams(exchange.body).get("redirect_uri")).toMatch(/\/api\/import\/oauth\/google_drive\/callback$/);
    const { connections } = await result("list_storage_connections");
    expect(connections).toEqual([
      expect.objectContaining({ id: connectionId, provider: "google_drive", status: "active", name: "Google Drive (dana@example.com)" }),
    ]);
    expect(JSON.stringify(connections)).not.toMatch(/at-|rt-/);
  });

  it("browses a folder by id: sub-folders, then files with size and md5Checksum; Google-native documents are left out", async () => {
    const top = await result("browse_storage", { connectionId });
    expect(top.entries.map((e: any) => [e.name, e.isFolder, e.id])).toEqual([["Spring", true, spring]]);
    const inside = await result("browse_storage", { connectionId, path: spring });
    expect(inside.entries.map((e: any) => e.name)).toEqual(["hero.png", "square.jpg"]);
    expect(inside.entries[0]).toMatchObject({ id: hero, isFolder: false, sizeBytes: expect.any(Number), revision: expect.stringMatching(/^[0-9a-f]{32}$/) });
    const missing = await tool("browse_storage", { connectionId, path: "no-such-folder" });
    expect(missing.status).toBe(200); // Drive lists an unknown parent as empty
    const stat = await tool("import_files", { connectionId, paths: ["no-such-file"] });
    expect(stat.status).toBe(404);
    expect(stat.body.error.code).toBe("not_found");
  });

  it("imports a picked file into a creative, streamed with files.get?alt=media", async () => {
    const before = downloads(drive);
    const { run } = await result("import_files", { connectionId, paths: [hero] });
    const done = await finished(run.id);
    expect(done).toMatchObject({ status: "completed", importedCount: 1, skippedCount: 0, failedCount: 0 });
    expect(downloads(drive)).toBe(before + 1);
    // An imported file is an upload: its creative is ready (dimensions read) when the upload job has run.
    const creative = await waitFor("the imported creative to be ready", async () =>
      (await allCreatives(key, server.url)).find((c) => c.id === done.items[0].creativeId && c.status === "ready"),
    );
    expect(creative).toMatchObject({ fileName: "hero.png", width: 120, height: 80 });
  });

  it("watches a folder: the first sync imports what is new, a second imports nothing, a renamed copy is skipped by md5Checksum without being read", async () => {
    const { watchedFolder } = await result("watch_storage_folder", { connectionId, path: spring });
    const first = await finished((await result("sync_watched_folder", { watchedFolderId: watchedFolder.id })).run.id);
    // hero.png came in by the one-off import: same id and md5Checksum, so it is not even listed.
    expect(first.items.map((i: any) => [i.fileName, i.status])).toEqual([["square.jpg", "imported"]]);

    const second = await finished((await result("sync_watched_folder", { watchedFolderId: watchedFolder.id })).run.id);
    expect(second).toMatchObject({ itemCount: 0, importedCount: 0 });
    expect(drive.requests.some((r) => r.path === "/drive/v3/changes" && r.query.get("pageToken"))).toBe(true);

    const before = downloads(drive);
    drive.copy(square, "square renamed.jpg");
    const sub = drive.addFolder("Later", spring);
    drive.addFile("deep.png", await pngImage(30, 30), sub, "image/png");
    drive.addFile("elsewhere.png", await pngImage(31, 31), drive.rootId, "image/png");
    const third = await finished((await result("sync_watched_folder", { watchedFolderId: watchedFolder.id })).run.id);
    expect(third.items.map((i: any) => [i.fileName, i.status])).toEqual([
      ["square renamed.jpg", "skipped"],
      ["deep.png", "imported"],
    ]);
    expect(third.items[0].error).toMatch(/Already imported \(same checksum\)/);
    expect(downloads(drive)).toBe(before + 1);
  });

  it("gives the dashboard's Google Picker a current token for the connection, same-origin only; the Import page's CSP lets the Picker in", async () => {
    const picker = (path: string, headers: Record<string, string> = {}) =>
      fetch(server.url + path, { headers: { Cookie: cookieHeader(jar), "Sec-Fetch-Site": "same-origin", ...headers } });
    const ok = await picker(`/api/import/drive-picker?connectionId=${connectionId}`);
    expect(ok.status).toBe(200);
    const body = await ok.json();
    expect(body).toEqual({ accessToken: expect.stringMatching(/^at-/), apiKey: "picker-browser-key", appId: "123456789012" });
    const about = await fetch(`${drive.apiUrl}/drive/v3/about?fields=user`, { headers: { Authorization: `Bearer ${body.accessToken}` } });
    expect(about.status).toBe(200);
    expect((await picker(`/api/import/drive-picker?connectionId=${connectionId}`, { "Sec-Fetch-Site": "cross-site" })).status).toBe(403);
    const other = await picker(`/api/import/drive-picker?connectionId=stc_someone_elses`);
    expect(other.status).toBe(404);
    expect((await other.json()).error.code).toBe("not_found");
    expect((await fetch(`${server.url}/api/import/drive-picker?connectionId=${connectionId}`)).status).toBe(401);

    const page = await picker("/dashboard/import");
    expect(page.headers.get("content-security-policy")).toMatch(/frame-src https:\/\/docs\.google\.com/);
    const elsewhere = await picker("/dashboard");
    expect(elsewhere.headers.get("content-security-policy")).not.toMatch(/google/);
  });

  it("refreshes an expired access token; a revoked authorization is shown and answers not_connected", async () => {
    drive.expireAccessTokens();
    expect((await tool("browse_storage", { connectionId })).status).toBe(200);
    expect(drive.requests.some((r) => r.path === "/token" && r.body.includes("refresh_token"))).toBe(true);

    drive.revokeAll();
    const refused = await tool("browse_storage", { connectionId });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe("not_connected");
    const { connections } = await result("list_storage_connections");
    expect(connections.find((c: any) => c.id === connectionId)).toMatchObject({ status: "revoked", statusReason: expect.stringMatching(/invalid_grant/) });
    expect((await tool("import_files", { connectionId, paths: [hero] })).body.error.code).toBe("not_connected");
  });

  it("disconnecting revokes the tokens at Google (POST /revoke, the refresh token form-encoded); a revocation Google does not confirm still disconnects, and says so", async () => {
    const id = await connect("google_drive", drive.issueCode());
    expect((await tool("browse_storage", { connectionId: id })).status).toBe(200);
    const before = drive.requests.length;
    const { connection } = await result("disconnect_storage", { connectionId: id });
    expect(connection).toMatchObject({ id, status: "revoked", statusReason: "Disconnected by a member" });
    const revokes = drive.requests.slice(before).filter((r) => r.path === "/revoke");
    expect(revokes).toHaveLength(1);
    expect(revokes[0]!.method).toBe("POST");
    expect(revokes[0]!.headers["content-type"]).toMatch(/^application\/x-www-form-urlencoded/);
    const token = new URLSearchParams(revokes[0]!.body).get("token")!;
    expect(token).toMatch(/^rt-/);
    // Google no longer honours the grant: the refresh token is refused at the token endpoint.
    const refreshed = await fetch(drive.tokenUrl, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "refresh_token",
        refresh_token: token,
        client_id: "drive-client.apps.googleusercontent.com",
        client_secret: "drive-secret",
      }),
    });
    expect(refreshed.status).toBe(400);
    expect((await tool("browse_storage", { connectionId: id })).body.error.code).toBe("not_connected");
    // Disconnecting again is answered as it is, without another call to Google.
    expect((await result("disconnect_storage", { connectionId: id })).connection.status).toBe("revoked");
    expect(drive.requests.slice(before).filter((r) => r.path === "/revoke")).toHaveLength(1);

    const failing = await connect("google_drive", drive.issueCode());
    drive.failRevocations(503);
    try {
      const res = await tool("disconnect_storage", { connectionId: failing });
      expect(res.status).toBe(200);
      expect(res.body.result.connection).toMatchObject({ status: "revoked", statusReason: expect.stringMatching(/did not confirm.*503/) });
    } finally {
      drive.failRevocations(null);
    }
    const { connections } = await result("list_storage_connections");
    expect(connections.find((c: any) => c.id === failing)).toMatchObject({ status: "revoked", statusReason: expect.stringMatching(/connected apps/) });
    expect((await tool("import_files", { connectionId: failing, paths: [hero] })).body.error.code).toBe("not_connected");
  });
});

describe("Dropbox", () => {
  let connectionId: string;
  let hero: string;

  it("connects by OAuth (offline access, read scopes) and is named after the account", async () => {
    dropbox.addFolder("/Spring");
    hero = dropbox.addFile("/Spring/hero.png", await pngImage(140, 70));
    dropbox.addFile("/Spring/square.jpg", await jpegImage(80, 80));
    dropbox.addFile("/top.png", await pngImage(12, 12));
    const start = await get("/api/import/oauth/dropbox/start");
    expect(`${start.location.origin}${start.location.pathname}`).toBe("https://www.dropbox.com/oauth2/authorize");
    expect(Object.fromEntries(start.location.searchParams)).toMatchObject({
      client_id: "dbx-key",
      response_type: "code",
      token_access_type: "offline",
      scope: "account_info.read files.metadata.read files.content.read",
    });
    connectionId = await connect("dropbox", dropbox.issueCode());
    const { connections } = await result("list_storage_connections");
    expect(connections.find((c: any) => c.id === connectionId)).toMatchObject({ provider: "dropbox", status: "active", name: "Dropbox (dee@example.com)" });
    const used = await get(`/api/import/oauth/dropbox/callback?code=used&state=whatever`);
    expect(used.location.searchParams.get("error")).toMatch(/could not be matched/);
  });

  it("browses by path: folders first, files with content_hash", async () => {
    const top = await result("browse_storage", { connectionId });
    expect(top.entries.map((e: any) => [e.name, e.isFolder, e.id])).toEqual([
      ["Spring", true, "/Spring"],
      ["top.png", false, expect.stringMatching(/^id:/)],
    ]);
    const inside = await result("browse_storage", { connectionId, path: "/Spring" });
    expect(inside.entries.map((e: any) => e.name)).toEqual(["hero.png", "square.jpg"]);
    expect(inside.entries[0]).toMatchObject({ id: hero, path: "/Spring/hero.png", revision: expect.stringMatching(/^[0-9a-f]{64}$/) });
    const missing = await tool("browse_storage", { connectionId, path: "/Nope" });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe("not_found");
  });

  it("imports a picked file with files/download", async () => {
    const { run } = await result("import_files", { connectionId, paths: [hero] });
    const done = await finished(run.id);
    expect(done).toMatchObject({ status: "completed", importedCount: 1 });
    const download = dropbox.requests.find((r) => r.path === "/2/files/download")!;
    expect(JSON.parse(String(download.headers["dropbox-api-arg"]))).toEqual({ path: hero });
  });

  it("watches a folder by cursor: nothing new on the second sync, a renamed copy skipped by content_hash", async () => {
    const { watchedFolder } = await result("watch_storage_folder", { connectionId, path: "/Spring" });
    const first = await finished((await result("sync_watched_folder", { watchedFolderId: watchedFolder.id })).run.id);
    expect(first.items.map((i: any) => [i.fileName, i.status])).toEqual([["square.jpg", "imported"]]);
    const second = await finished((await result("sync_watched_folder", { watchedFolderId: watchedFolder.id })).run.id);
    expect(second).toMatchObject({ itemCount: 0 });
    expect(dropbox.requests.some((r) => r.path === "/2/files/list_folder/continue")).toBe(true);

    const before = downloads(dropbox);
    dropbox.copy("/Spring/hero.png", "/Spring/hero final.png");
    dropbox.addFile("/Spring/2026/deep.png", await pngImage(33, 21));
    dropbox.addFile("/elsewhere.png", await pngImage(34, 21));
    const third = await finished((await result("sync_watched_folder", { watchedFolderId: watchedFolder.id })).run.id);
    expect(third.items.map((i: any) => [i.fileName, i.status])).toEqual([
      ["hero final.png", "skipped"],
      ["deep.png", "imported"],
    ]);
    expect(downloads(dropbox)).toBe(before + 1);
  });

  it("disconnecting revokes the token at Dropbox (/2/auth/token/revoke with the bearer token); a failed revocation still disconnects", async () => {
    const id = await connect("dropbox", dropbox.issueCode());
    expect((await tool("browse_storage", { connectionId: id })).status).toBe(200);
    const before = dropbox.requests.length;
    const { connection } = await result("disconnect_storage", { connectionId: id });
    expect(connection).toMatchObject({ id, status: "revoked", statusReason: "Disconnected by a member" });
    const revokes = dropbox.requests.slice(before).filter((r) => r.path === "/2/auth/token/revoke");
    expect(revokes).toHaveLength(1);
    expect(revokes[0]!.method).toBe("POST");
    expect(revokes[0]!.body).toBe("");
    const bearer = String(revokes[0]!.headers.authorization);
    expect(bearer).toMatch(/^Bearer at-/);
    // The token no longer opens the account.
    const account = await fetch(`${dropbox.apiUrl}/2/users/get_current_account`, { method: "POST", headers: { Authorization: bearer } });
    expect(account.status).toBe(401);

    const failing = await connect("dropbox", dropbox.issueCode());
    dropbox.failRevocations(500);
    try {
      const res = await tool("disconnect_storage", { connectionId: failing });
      expect(res.status).toBe(200);
      expect(res.body.result.connection).toMatchObject({ status: "revoked", statusReason: expect.stringMatching(/did not confirm.*500/) });
    } finally {
      dropbox.failRevocations(null);
    }
    expect((await tool("browse_storage", { connectionId: failing })).body.error.code).toBe("not_connected");
  });

  it("a revoked app answers not_connected and the connection shows it", async () => {
    dropbox.revokeAll();
    const refused = await tool("browse_storage", { connectionId });
    expect(refused.body.error.code).toBe("not_connected");
    const { connections } = await result("list_storage_connections");
    expect(connections.find((c: any) => c.id === connectionId)).toMatchObject({ status: "revoked" });
    const creatives = await allCreatives(key, server.url);
    expect(creatives.filter((c) => /deep|hero|square/.test(c.fileName)).length).toBeGreaterThanOrEqual(5);
  });
});
