import { describe, expect, it } from "vitest";

describe("secrets encrypted at rest", () => {
  it("round-trips, detects tampering, and is bound to its purpose", async () => {
    process.env.AUTH_SECRET = "x".repeat(40);
    const { decryptAtRest, encryptAtRest } = await import("./encryption");
    const stored = encryptAtRest("JBSWY3DPEHPK3PXP", "totp-secret");
    expect(stored).toMatch(/^v1\./);
    expect(stored).not.toContain("JBSWY3DPEHPK3PXP");
    expect(decryptAtRest(stored, "totp-secret")).toBe("JBSWY3DPEHPK3PXP");
    const parts = stored.split(".");
    parts[3] = Buffer.from("tampered").toString("base64url");
    expect(() => decryptAtRest(parts.join("."), "totp-secret")).toThrow();
    expect(() => decryptAtRest(stored, "another-purpose")).toThrow();
  });
});
