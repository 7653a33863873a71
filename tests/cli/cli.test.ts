import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, inject, it } from "vitest";
import { api, createMemberKey, createTenant } from "../helpers/fixtures";
import { pngImage } from "../helpers/media-fixtures";
import { receiverServer } from "../tools/tool-calls";
import { runAdloom } from "../helpers/cli";
import { creativeWhen } from "../helpers/library";
import { readyCreative, toolResult } from "../tools/helpers";

const adloom = runAdloom;

const configDir = () => fs.mkdtempSync(path.join(os.tmpdir(), "adloom-cli-"));

describe("adloom command-line client", () => {
  it("logs in (key file mode 0600), then works without flags", async () => {
    const t = await createTenant();
    const dir = configDir();
    const login = await adloom(["login", "--api-key", t.key], { ADLOOM_CONFIG_DIR: dir });
    expect(login.code, login.stderr).toBe(0);
    expect(login.stdout).toContain("Logged in as");
    const file = path.join(dir, "config.json");
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(fs.readFileSync(file, "utf8"))).toMatchObject({ apiKey: t.key, baseUrl: inject("baseUrl") });

    const me = await adloom(["me", "--json"], { ADLOOM_CONFIG_DIR: dir, ADLOOM_BASE_URL: "" });
    expect(me.code, me.stderr).toBe(0);
    expect(me.json.account.id).toBe(t.ownerUserId);
    const human = await adloom(["me"], { ADLOOM_CONFIG_DIR: dir });
    expect(human.stdout).toMatch(/^id\s+usr_/m);

    const fromStdin = await adloom(["login"], { ADLOOM_CONFIG_DIR: configDir() }, `${t.key}\n`);
    expect(fromStdin.code, fromStdin.stderr).toBe(0);

    const bad = await adloom(["login", "--api-key", "adl_wrong"], { ADLOOM_CONFIG_DIR: configDir() });
    expect(bad.code).toBe(3);
    expect(bad.stderr).toMatch(/^error \(unauthorized\): /);

    expect((await adloom(["logout"], { ADLOOM_CONFIG_DIR: dir })).code).toBe(0);
    const after = await adloom(["me"], { ADLOOM_CONFIG_DIR: dir });
    expect(after.code).toBe(3);
    expect(after.stderr).toContain("adloom login");
  });

  it("pushes files with progress, waits for the platform ids, and manages uploads", async () => {
    const t = await createTenant();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "adloom-files-"));
    const a = path.join(dir, "cli-a.png");
    const b = path.join(dir, "cli-b.png");
    fs.writeFileSync(a, await pngImage(16, 16));
    fs.writeFileSync(b, await pngImage(12, 12));
    const env = { ADLOOM_API_KEY: t.key, ADLOOM_CONFIG_DIR: configDir() };
    const push = await adloom(["uploads", "push", a, b, "--platform", "platform_b", "--wait", "--json"], env);
    expect(push.code, push.stderr).toBe(0);
    expect(push.stderr).toContain("sent cli-a.png");
    expect(push.stderr).toContain("sent cli-b.png");
    expect(push.json.uploads.map((u: any) => [u.fileName, u.status])).toEqual([
      ["cli-a.png", "completed"],
      ["cli-b.png", "completed"],
    ]);
    expect(push.json.uploads[0].platform_b.imageId).toMatch(/^\d+$/);

    const table = await adloom(["uploads", "list"], env);
    expect(table.stdout.split("\n")[0]).toMatch(/^ID\s+FILENAME\s+KIND\s+STATUS/);
    expect(table.stdout).toContain("cli-b.png");
    const page = await adloom(["uploads", "list", "--limit", "1", "--json"], env);
    expect(page.json.uploads).toHaveLength(1);
    expect(page.json.nextCursor).toEqual(expect.any(String));
    const all = await adloom(["uploads", "list", "--limit", "1", "--all", "--json"], env);
    expect(all.json.uploads).toHaveLength(2);

    const id = push.json.uploads[0].id;
    expect((await adloom(["uploads", "get", id, "--json"], env)).json.upload.id).toBe(id);
    const retry = await adloom(["uploads", "retry", id], env);
    expect(retry.code).toBe(1);
    expect(retry.stderr).toMatch(/^error \(not_found\): /);
    expect((await adloom(["uploads", "dismiss", id], env)).code).toBe(0);
    expect((await api(t.key)(`/api/v1/uploads/${id}`)).status).toBe(404);

    const failing = path.join(dir, "sandbox-fail-cli.png");
    fs.writeFileSync(failing, await pngImage(8, 8));
    const failed = await adloom(["uploads", "push", failing, "--wait"], env);
    expect(failed.code).toBe(4);
    expect(failed.stdout).toContain("failed");
  }, 180_000);

  it("pushes a file as a creative's next version (--version-of), by multipart and over tus; the finished upload names the creative", async () => {
    const t = await createTenant();
    const env = { ADLOOM_API_KEY: t.key, ADLOOM_CONFIG_DIR: configDir() };
    const { creativeId } = await readyCreative(t.key);
    await creativeWhen(t.key, creativeId, (c) => c.status === "ready");
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "adloom-files-"));
    const v2 = path.join(dir, "cli-v2.png");
    const v3 = path.join(dir, "cli-v3.png");
    fs.writeFileSync(v2, await pngImage(20, 12));
    fs.writeFileSync(v3, await pngImage(24, 12));

    const multipart = await adloom(["uploads", "push", v2, "--version-of", creativeId, "--wait", "--json"], env);
    expect(multipart.code, multipart.stderr).toBe(0);
    expect(multipart.json.uploads).toEqual([expect.objectContaining({ fileName: "cli-v2.png", status: "completed", creativeId, versionOf: creativeId })]);
    // The tus path (files over 20 MB, or --resumable) carries versionOf as metadata.
    const tus = await adloom(["uploads", "push", v3, "--version-of", creativeId, "--resumable", "--wait"], env);
    expect(tus.code, tus.stderr).toBe(0);
    expect(tus.stdout.split("\n")[0]).toMatch(/CREATIVEID/);
    expect(tus.stdout).toContain(creativeId);
    const listed = await toolResult(t.key, "list_creative_versions", { creativeId });
    expect(listed.versions.map((v: { number: number; fileName: string }) => [v.number, v.fileName])).toEqual([
      [1, expect.any(String)],
      [2, "cli-v2.png"],
      [3, "cli-v3.png"],
    ]);
    expect((await api(t.key)("/api/v1/creatives")).body.creatives).toHaveLength(1);

    // One file per version; the server's refusal of an unknown creative is a plain error.
    expect((await adloom(["uploads", "push", v2, v3, "--version-of", creativeId], env)).code).toBe(2);
    expect((await adloom(["uploads", "push", v2, "--version-of", creativeId, "--folder", "fld_x"], env)).code).toBe(2);
    const unknown = await adloom(["uploads", "push", v2, "--version-of", "crv_nope"], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/Unknown versionOf/);
  }, 180_000);

  it("manages creatives, copy and webhooks", async () => {
    const t = await createTenant();
    const env = { ADLOOM_API_KEY: t.key, ADLOOM_CONFIG_DIR: configDir() };
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "adloom-files-"));
    const file = path.join(dir, "lib.png");
    fs.writeFileSync(file, await pngImage(10, 10));
    expect((await adloom(["uploads", "push", file, "--wait"], env)).code).toBe(0);
    let creative: any;
    for (let i = 0; i < 100 && !creative; i++) {
      creative = (await adloom(["creatives", "list", "--json"], env)).json.creatives[0];
      if (!creative) await new Promise((r) => setTimeout(r, 300));
    }
    const add = await adloom(["copy", "add", creative.id, "--headline", "CLI headline", "--primary-text", "Body", "--json"], env);
    expect(add.code, add.stderr).toBe(0);
    const copies = await adloom(["copy", "list", creative.id, "--json"], env);
    expect(copies.json.copies).toEqual([expect.objectContaining({ id: add.json.id, headline: "CLI headline", primaryText: "Body" })]);
    expect((await adloom(["copy", "remove", creative.id, add.json.id], env)).code).toBe(0);
    const deleted = await adloom(["creatives", "delete", creative.id, "--json"], env);
    expect(deleted.json).toEqual({ deleted: 1 });

    const receiver = await receiverServer();
    try {
      expect((await adloom(["webhooks", "get"], env)).stdout).toContain("No webhook endpoint");
      expect((await adloom(["webhooks", "set", receiver.url, "--json"], env)).json.webhook.url).toBe(receiver.url);
      expect((await adloom(["webhooks", "events", "upload.completed,upload.failed", "--json"], env)).json.webhook.events).toEqual([
        "upload.completed",
        "upload.failed",
      ]);
      const unknown = await adloom(["webhooks", "events", "nope.event"], env);
      expect(unknown.code).toBe(1);
      const test = await adloom(["webhooks", "test", "--json"], env);
      expect(test.json.event.type).toBe("test");
      let delivery: any;
      for (let i = 0; i < 100 && !delivery; i++) {
        delivery = (await adloom(["webhooks", "deliveries", "--json"], env)).json.deliveries[0];
        if (!delivery) await new Promise((r) => setTimeout(r, 200));
      }
      const redeliver = await adloom(["webhooks", "redeliver", delivery.id, "--json"], env);
      expect(redeliver.json.delivery).toMatchObject({ eventId: test.json.event.id, trigger: "redelivery" });
      expect((await adloom(["webhooks", "delete"], env)).code).toBe(0);
      expect((await adloom(["webhooks", "get", "--json"], env)).json).toEqual({ webhook: null });
    } finally {
      await receiver.close();
    }
  }, 120_000);

  it("lists and calls tools with JSON or with flags typed by the schema", async () => {
    const t = await createTenant();
    const env = { ADLOOM_API_KEY: t.key, ADLOOM_CONFIG_DIR: configDir() };
    const list = await adloom(["tools", "list", "--json"], env);
    expect(list.json.tools.map((x: any) => x.name)).toContain("create_folder");
    const human = await adloom(["tools", "list", "--category", "folders"], env);
    expect(human.stdout).toMatch(/delete_folder\s+folders\s+destructive/);

    const viaJson = await adloom(["tools", "call", "create_folder", '{"name":"From JSON"}', "--json"], env);
    expect(viaJson.code, viaJson.stderr).toBe(0);
    const parent = viaJson.json.result.folder.id;
    const viaFlags = await adloom(["tools", "call", "create_folder", "--name", "From flags", "--parent-id", parent], env);
    expect(viaFlags.code, viaFlags.stderr).toBe(0);
    expect(JSON.parse(viaFlags.stdout).folder).toMatchObject({ name: "From flags", parentId: parent });
    const page = await adloom(["tools", "call", "list_folders", "--limit", "1", "--json"], env);
    expect(page.json.result.folders).toHaveLength(1);
    const arrays = await adloom(["tools", "call", "delete_creatives", "--ids", "crt_a,crt_b", "--json"], env);
    expect(arrays.json.result).toEqual({ deleted: 0 });

    const invalid = await adloom(["tools", "call", "list_folders", "--limit", "0"], env);
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toMatch(/^error \(invalid_input\): Invalid input: limit/);
    const typo = await adloom(["tools", "call", "list_folders", "--limmit", "3"], env);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain("--limit");
    const unknownTool = await adloom(["tools", "call", "no_such_tool", "{}", "--json"], env);
    expect(unknownTool.code).toBe(1);
    expect(unknownTool.json.error.code).toBe("not_found");

    const viewer = await createMemberKey(t, { role: "viewer" });
    const refused = await adloom(["tools", "call", "create_folder", '{"name":"x"}'], { ...env, ADLOOM_API_KEY: viewer.key });
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(/^error \(forbidden\): /);
    const scoped = await createMemberKey(t, { role: "owner", scopes: ["edit"] });
    const outOfScope = await adloom(["tools", "call", "delete_folder", "--id", parent, "--json"], { ...env, ADLOOM_API_KEY: scoped.key });
    expect(outOfScope.code).toBe(3);
    expect(outOfScope.json.error).toMatchObject({ code: "forbidden", message: expect.stringContaining('"delete"') });
  });

  it("answers usage errors with exit code 2", async () => {
    const env = { ADLOOM_CONFIG_DIR: configDir() };
    expect((await adloom(["frobnicate"], env)).code).toBe(2);
    expect((await adloom(["uploads", "push"], env)).code).toBe(2);
    expect((await adloom(["uploads", "list", "--limit", "x"], { ...env, ADLOOM_API_KEY: "adl_x" })).code).toBe(2);
    expect((await adloom([], env)).code).toBe(2);
    const help = await adloom(["help"], env);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("Exit codes");
  });
});
