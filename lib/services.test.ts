import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { parseConfig } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import { getStorage } from "@/lib/storage";
import { seedMigratedDatabase } from "@/tests/helpers/database-template";
import { createServices, defineService, disposeServices, getConfig, getServices } from "./services";

const configIn = (dataDir: string) => parseConfig({ DATA_DIR: dataDir } as unknown as NodeJS.ProcessEnv);
const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), "adloom-services-"));

afterEach(disposeServices);

describe("the service registry", () => {
  it("serves the services of the configuration it was made over, and disposing closes them", async () => {
    const dataDir = tempDir();
    await seedMigratedDatabase(dataDir); // an existing database to open: a copy, not an initdb (~5 CPU-s)
    createServices(configIn(dataDir));
    expect(getConfig().dataDir).toBe(dataDir);
    await getStorage().put("ws_1/uploads/upl_1", Readable.from([Buffer.from("bytes")]), { contentType: "text/plain" });
    expect(fs.readFileSync(path.join(dataDir, "media", "ws_1", "uploads", "upl_1"), "utf8")).toBe("bytes");
    await getDb().$executeRawUnsafe("CREATE TABLE kept (n int)");
    await getDb().$executeRawUnsafe("INSERT INTO kept VALUES (7)");
    const firstStorage = getStorage();
    await disposeServices();

    // A new registry over the same directory opens the embedded database again (the old one let it
    // go) and finds what the first one wrote; its services are new objects.
    createServices(configIn(dataDir));
    expect(await getDb().$queryRawUnsafe("SELECT n FROM kept")).toEqual([{ n: 7 }]);
    expect(getStorage()).not.toBe(firstStorage);
  }, 120_000); // opens an embedded database twice

  it("is one per process: a second registry is refused until the first is disposed", async () => {
    const registry = createServices(configIn(tempDir()));
    expect(getServices()).toBe(registry);
    expect(() => createServices(configIn(tempDir()))).toThrow(/already has its services/);
    await disposeServices();
    expect(() => registry.use("late", () => 1)).toThrow(/disposed registry/);
    expect(createServices(configIn(tempDir()))).not.toBe(registry);
  });

  it("makes a service once, by name, and disposes of services newest first", async () => {
    createServices(configIn(tempDir()));
    const stopped: string[] = [];
    let made = 0;
    const older = defineService(
      "test.older",
      () => ++made,
      () => stopped.push("older"),
    );
    // The same name declared again (as another bundle of the process would) finds the same service.
    const olderAgain = defineService("test.older", () => ++made);
    const newer = defineService(
      "test.newer",
      () => older() + 10,
      () => stopped.push("newer"),
    );
    expect([older(), olderAgain(), newer()]).toEqual([1, 1, 11]);
    expect(made).toBe(1);
    await disposeServices();
    expect(stopped).toEqual(["newer", "older"]);
  });

  it("is the only state kept on globalThis in the app's code", () => {
    const root = path.resolve(import.meta.dirname, "..");
    const holders: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
        const rel = path.join(dir, entry.name);
        if (entry.isDirectory()) {
          if (rel !== "lib/generated") walk(rel);
        } else if (/(?<!\.test)\.tsx?$/.test(entry.name) && /globalThis as/.test(fs.readFileSync(path.join(root, rel), "utf8"))) holders.push(rel);
      }
    };
    for (const dir of ["lib", "inngest", "app"]) walk(dir);
    // The request context is logging's: it must exist before any registry (see lib/observability/request-context.ts).
    expect(holders.sort()).toEqual(["lib/observability/request-context.ts", "lib/services.ts"]);
  });

  it("keeps mutable module state only in the registry: a module-level `let` is a memo of something that never changes", () => {
    const root = path.resolve(import.meta.dirname, "..");
    const holders: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
        const rel = path.join(dir, entry.name);
        if (entry.isDirectory()) {
          if (rel !== "lib/generated") walk(rel);
        } else if (/(?<!\.test)\.tsx?$/.test(entry.name) && /^(let|var) /m.test(fs.readFileSync(path.join(root, rel), "utf8"))) holders.push(rel);
      }
    };
    for (const dir of ["lib", "inngest", "app"]) walk(dir);
    // Each one memoizes a derived constant (a generated document, a loaded class, a dummy hash).
    // Counters, connections and caches of data are services (defineService), e.g. the SMTP
    // transport (lib/mail) and the planner-statistics counter (lib/ads/planner-stats.ts).
    expect(holders.sort()).toEqual([
      "app/docs/openapi.json/route.ts",
      "lib/db/schema-engine.ts",
      "lib/mcp/server.ts",
      "lib/session/password.ts",
      "lib/tools/catalog.ts",
    ]);
  });

  it("releases one service, which the next use makes again", async () => {
    const registry = createServices(configIn(tempDir()));
    let made = 0;
    const counter = defineService("test.counter", () => ++made);
    expect(counter()).toBe(1);
    await registry.release("test.counter");
    expect(registry.peek("test.counter")).toBeUndefined();
    expect(counter()).toBe(2);
  });
});
