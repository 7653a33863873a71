import { describe, expect, it } from "vitest";
import type { AppError } from "@/lib/errors";
import { authorize } from "./authorize";
import type { Principal } from "./principal";

function principal(overrides: Partial<Principal> = {}): Principal {
  return {
    kind: "api_key",
    keyId: "key_1",
    userId: "usr_1",
    userName: "Ada",
    userEmail: "ada@example.com",
    twoFactorEnabled: false,
    workspaceId: "ws_1",
    role: "owner",
    scopes: null,
    folderIds: null,
    workspace: { name: "W", status: "active", plan: "pro", trialEndsAt: null, credits: 0, twoFactorRequiredFor: [] },
    ...overrides,
  };
}

function refusal(fn: () => void): AppError {
  try {
    fn();
  } catch (err) {
    return err as AppError;
  }
  throw new Error("expected a refusal");
}

describe("authorize", () => {
  it("lets an unscoped owner key do everything", () => {
    expect(() => authorize(principal(), "ads.launch")).not.toThrow();
    expect(() => authorize(principal(), "webhooks.write")).not.toThrow();
  });

  it("refuses editors launching and deleting, naming the missing permission", () => {
    const editor = principal({ role: "editor" });
    expect(() => authorize(editor, "copy.write")).not.toThrow();
    const err = refusal(() => authorize(editor, "creatives.delete"));
    expect(err.code).toBe("forbidden");
    expect(err.message).toContain("library.delete");
    expect(refusal(() => authorize(editor, "ads.launch")).message).toContain("ads.launch");
  });

  it("lets viewers only read", () => {
    const viewer = principal({ role: "viewer" });
    expect(() => authorize(viewer, "creatives.list")).not.toThrow();
    expect(refusal(() => authorize(viewer, "copy.write")).code).toBe("forbidden");
  });

  it("narrows a scoped key to its scopes, never widening the role", () => {
    const scoped = principal({ scopes: ["edit"] });
    expect(() => authorize(scoped, "copy.write")).not.toThrow();
    expect(() => authorize(scoped, "creatives.list")).not.toThrow();
    const err = refusal(() => authorize(scoped, "uploads.create"));
    expect(err.message).toContain('"upload"');
    expect(err.message).toContain('"publish"');
    // A viewer's key carrying `delete` still cannot delete.
    expect(refusal(() => authorize(principal({ role: "viewer", scopes: ["delete"] }), "creatives.delete")).code).toBe("forbidden");
  });

  it("keeps workspace administration to unscoped keys", () => {
    expect(refusal(() => authorize(principal({ scopes: ["upload"] }), "webhooks.read")).message).toContain("unscoped");
  });

  it("asks for two-factor where the workspace requires it", () => {
    const p = principal({ workspace: { ...principal().workspace, twoFactorRequiredFor: ["library.delete"] } });
    expect(refusal(() => authorize(p, "creatives.delete")).code).toBe("two_factor_required");
    expect(() => authorize({ ...p, twoFactorEnabled: true }, "creatives.delete")).not.toThrow();
    expect(() => authorize(p, "copy.write")).not.toThrow();
  });
});
