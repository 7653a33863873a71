import { describe, expect, it } from "vitest";
import { keyRingFrom } from "./keys";
import { open, resealEach, seal, UnreadableCredentials } from "./sealed";

const OLD = "old-key-0123456789abcdef0123456789abcdef";
const NEW = "new-key-0123456789abcdef0123456789abcdef";

describe("sealed credentials", () => {
  it("round-trips, and never repeats a ciphertext", () => {
    const ring = keyRingFrom(NEW);
    const a = seal("token-1", "adacct_1", ring);
    expect(a).not.toContain("token-1");
    expect(seal("token-1", "adacct_1", ring)).not.toBe(a);
    expect(open(a, "adacct_1", ring)).toEqual({ plaintext: "token-1", stale: false });
  });

  it("refuses another record's ciphertext and an altered one", () => {
    const ring = keyRingFrom(NEW);
    const a = seal("token-1", "adacct_1", ring);
    expect(() => open(a, "adacct_2", ring)).toThrow(UnreadableCredentials);
    const parts = a.split(".");
    parts[4] = Buffer.from("tampered").toString("base64url");
    expect(() => open(parts.join("."), "adacct_1", ring)).toThrow(UnreadableCredentials);
  });

  it("after a rotation opens what the previous key sealed, marked stale; without it, says which key is missing", () => {
    const sealedByOld = seal("token-1", "adacct_1", keyRingFrom(OLD));
    const rotated = keyRingFrom(NEW, [OLD]);
    expect(open(sealedByOld, "adacct_1", rotated)).toEqual({ plaintext: "token-1", stale: true });
    expect(open(seal("token-1", "adacct_1", rotated), "adacct_1", rotated).stale).toBe(false);
    expect(() => open(sealedByOld, "adacct_1", keyRingFrom(NEW))).toThrow(/CREDENTIALS_KEY_PREVIOUS/);
  });

  it("reseals what an earlier key sealed, names what no key opens, and counts only the rows it changed", async () => {
    const rotated = keyRingFrom(NEW, [OLD]);
    const rows = [
      { id: "a", sealed: seal("token-a", "row:a", keyRingFrom(OLD)) },
      { id: "b", sealed: seal("token-b", "row:b", rotated) },
      { id: "c", sealed: seal("token-c", "row:c", keyRingFrom("gone-key-0123456789abcdef0123456789abcd")) },
      { id: "d", sealed: seal("token-d", "row:d", keyRingFrom(OLD)) },
    ];
    const written = new Map<string, string>();
    // Row d changed meanwhile: the conditional update finds nothing to replace.
    const count = await resealEach(
      rows,
      (id) => `row:${id}`,
      async (id, _from, to) => (id === "d" ? 0 : (written.set(id, to), 1)),
      rotated,
    );
    expect(count).toEqual({ checked: 4, resealed: 1, unreadable: ["c"] });
    expect([...written.keys()]).toEqual(["a"]);
    expect(open(written.get("a")!, "row:a", keyRingFrom(NEW))).toEqual({ plaintext: "token-a", stale: false });
  });
});
