import { describe, expect, it } from "vitest";
import { base32Decode, base32Encode, generateTotpSecret, matchingTotpStep, otpauthUri, totpCode, verifyTotp } from "./totp";

// RFC 6238 appendix B, SHA-1 seed "12345678901234567890"; our codes are the last 6 of its 8 digits.
const RFC_SECRET = base32Encode(Buffer.from("12345678901234567890", "ascii"));

describe("TOTP", () => {
  it.each([
    [59, "287082"],
    [1111111109, "081804"],
    [1111111111, "050471"],
    [1234567890, "005924"],
    [2000000000, "279037"],
  ])("matches the RFC 6238 vector at t=%i", (seconds, code) => {
    expect(totpCode(RFC_SECRET, seconds * 1000)).toBe(code);
  });

  it("accepts one step of clock drift either way and nothing further", () => {
    const now = 1_700_000_000_000;
    const secret = generateTotpSecret();
    expect(verifyTotp(secret, totpCode(secret, now - 30_000), now)).toBe(true);
    expect(verifyTotp(secret, totpCode(secret, now + 30_000), now)).toBe(true);
    expect(verifyTotp(secret, totpCode(secret, now - 90_000), now)).toBe(false);
    expect(verifyTotp(secret, "12345", now)).toBe(false);
    expect(verifyTotp(secret, "abcdef", now)).toBe(false);
  });

  it("round-trips base32 and builds an otpauth URI authenticator apps read", () => {
    const bytes = Buffer.from([0, 1, 2, 250, 251, 252, 253]);
    expect(base32Decode(base32Encode(bytes))).toEqual(bytes);
    expect(generateTotpSecret()).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauthUri("JBSWY3DPEHPK3PXP", "a@b.co")).toBe(
      "otpauth://totp/Adloom%3Aa%40b.co?secret=JBSWY3DPEHPK3PXP&issuer=Adloom&algorithm=SHA1&digits=6&period=30",
    );
  });
});

describe("TOTP step matching", () => {
  it("names the step a code belongs to, so a used step can be refused", () => {
    const now = 1_700_000_000_000;
    const secret = generateTotpSecret();
    const step = Math.floor(now / 30_000);
    expect(matchingTotpStep(secret, totpCode(secret, now), now)).toBe(step);
    expect(matchingTotpStep(secret, totpCode(secret, now - 30_000), now)).toBe(step - 1);
    expect(matchingTotpStep(secret, "000000" === totpCode(secret, now) ? "111111" : "000000", now)).toBeNull();
  });
});
