import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { localRegistry } from "./local-registry";

/**
 * What the package tests share: a scratch directory, `npm pack` of a workspace package into it,
 * a local registry serving the tarballs, and fresh consumer projects that install them with npm.
 */

export const run = promisify(execFile);
export const ROOT = path.resolve(__dirname, "../..");

export interface PackWorkspace {
  /** The scratch directory (tarballs, projects, npm's cache). */
  dir: string;
  /** The local registry's URL (after `serve`). */
  registryUrl(): string;
  /** Packs a workspace package (e.g. "packages/sdk") without running its scripts; returns the tarball's path. */
  pack(packageDir: string): Promise<string>;
  /** Serves these tarballs as a registry, so npm (and Deno, Bun) install them as published. */
  serve(tarballs: string[]): Promise<void>;
  /** Runs npm in `cwd` against the local registry, with its own cache. */
  npm(args: string[], cwd: string): Promise<{ stdout: string; stderr: string }>;
  /** A fresh project `name` with package.json of this module type and the tarball installed; returns its directory. */
  project(name: string, type: "module" | "commonjs", tarball: string): Promise<string>;
  close(): Promise<void>;
}

export function packWorkspace(label: string): PackWorkspace {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `adloom-${label}-`));
  let registry: Awaited<ReturnType<typeof localRegistry>> | undefined;
  const registryUrl = () => {
    if (!registry) throw new Error("serve() the tarballs first");
    return registry.url;
  };
  const workspace: PackWorkspace = {
    dir,
    registryUrl,
    async pack(packageDir) {
      const { stdout } = await run("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", dir], { cwd: path.join(ROOT, packageDir) });
      return path.join(dir, (JSON.parse(stdout) as { filename: string }[])[0]!.filename);
    },
    async serve(tarballs) {
      registry = await localRegistry(tarballs);
    },
    async npm(args, cwd) {
      const env = {
        ...process.env,
        npm_config_cache: path.join(dir, "npm-cache"),
        npm_config_audit: "false",
        npm_config_fund: "false",
        npm_config_update_notifier: "false",
      };
      return run("npm", [...args, "--registry", registryUrl()], { cwd, env, maxBuffer: 16 * 1024 * 1024 });
    },
    async project(name, type, tarball) {
      const projectDir = path.join(dir, name);
      fs.mkdirSync(projectDir, { recursive: true });
      fs.writeFileSync(path.join(projectDir, "package.json"), JSON.stringify({ name: `consumer-${name}`, private: true, type }));
      await workspace.npm(["install", tarball], projectDir);
      return projectDir;
    },
    async close() {
      await registry?.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  return workspace;
}
