import { inject } from "vitest";
import { sendAdminCommand } from "@/lib/admin/socket-client";

/** Runs an operator command against the shared server (the same path `npm run admin` takes while it runs). */
export async function admin<T = Record<string, string>>(argv: string[], dataDir = inject("dataDir")): Promise<T> {
  const { ok, body } = await sendAdminCommand(dataDir, argv);
  if (!ok) throw new Error(`admin ${argv.join(" ")} failed: ${JSON.stringify(body)}`);
  return body as T;
}

export interface Tenant {
  workspaceId: string;
  ownerUserId: string;
  /** An unscoped key of the owner. */
  key: string;
  keyId: string;
}

let counter = 0;

/** A fresh workspace on the pro plan (unless told otherwise) with an owner key. */
export async function createTenant(options: { plan?: "pro" | "none"; dataDir?: string } = {}): Promise<Tenant> {
  const name = `Test ${Date.now()}-${++counter}`;
  const { workspaceId, ownerUserId } = await admin(["workspace", "create", "--name", name, "--plan", options.plan ?? "pro"], options.dataDir);
  const { id, key } = await admin(["key", "create", "--workspace", workspaceId, "--user", ownerUserId], options.dataDir);
  return { workspaceId, ownerUserId, key, keyId: id };
}

/** A member of the tenant's workspace with a key (optionally scoped). */
export async function createMemberKey(
  tenant: Tenant,
  options: { role: "owner" | "admin" | "editor" | "viewer"; scopes?: string[]; folders?: string[]; dataDir?: string },
): Promise<{ userId: string; key: string; keyId: string }> {
  const email = `member-${Date.now()}-${process.pid}-${++counter}@example.com`; // the pid: workers share the server
  const { userId } = await admin(
    [
      "member",
      "add",
      "--workspace",
      tenant.workspaceId,
      "--email",
      email,
      "--role",
      options.role,
      ...(options.folders ? ["--folders", options.folders.join(",")] : []),
    ],
    options.dataDir,
  );
  const { id, key } = await admin(
    ["key", "create", "--workspace", tenant.workspaceId, "--user", userId, ...(options.scopes ? ["--scopes", options.scopes.join(",")] : [])],
    options.dataDir,
  );
  return { userId, key, keyId: id };
}

/** fetch against the shared server with a Bearer key. */
export function api(key: string | null, baseUrl = inject("baseUrl")) {
  return async (path: string, init: RequestInit & { json?: unknown } = {}) => {
    const headers = new Headers(init.headers);
    if (key) headers.set("Authorization", `Bearer ${key}`);
    let body = init.body;
    if (init.json !== undefined) {
      headers.set("Content-Type", "application/json");
      body = JSON.stringify(init.json);
    }
    const res = await fetch(baseUrl + path, { ...init, headers, body });
    const text = await res.text();
    let data: any;
    try {
      data = text ? JSON.parse(text) : undefined;
    } catch {
      data = text;
    }
    return { status: res.status, headers: res.headers, body: data };
  };
}
