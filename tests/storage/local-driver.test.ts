// The local driver against the MediaStorage contract (no server or database needed).
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { expect } from "vitest";
import { LocalMediaStorage } from "@/lib/storage";
import { describeStorageContract } from "./storage-contract";

describeStorageContract("local", async () => {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), "adloom-local-storage-"));
  return {
    storage: new LocalMediaStorage(root),
    afterAbortedPut: async () => {
      // the partial file is removed, not just left out of place
      expect(await fs.readdir(path.join(root, ".partial"))).toEqual([]);
    },
    cleanup: () => fs.rm(root, { recursive: true, force: true }),
  };
});
