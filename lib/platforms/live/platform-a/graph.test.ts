import { describe, expect, it } from "vitest";
import { graphError, retryAfterSeconds } from "./graph";

const err = (error: Record<string, unknown>, status = 400, headers?: Record<string, string>) => graphError(status, { error }, new Headers(headers));

describe("Graph errors as tool codes", () => {
  it("a refused token (190, 102, permissions) is not_connected and marks the account for reconnecting", () => {
    for (const code of [190, 102, 10, 200, 294]) {
      const e = err({ message: "Error validating access token", type: "OAuthException", code, error_subcode: 463 });
      expect(e).toMatchObject({ code: "not_connected", retryable: false, authRefused: true });
      expect(e.message).toContain(`code ${code}`);
    }
  });

  it("rate limits are upstream_busy with the wait the usage headers give", () => {
    const buc = { "x-business-use-case-usage": JSON.stringify({ "123": [{ type: "ads_management", estimated_time_to_regain_access: 4 }] }) };
    expect(err({ message: "(#17) User request limit reached", code: 17 }, 400, buc)).toMatchObject({
      code: "upstream_busy",
      retryable: true,
      headers: { "Retry-After": "240" },
    });
    const account = { "x-ad-account-usage": JSON.stringify({ acc_id_util_pct: 100, reset_time_duration: 42 }) };
    expect(err({ message: "(#80004) There have been too many calls to this ad-account", code: 80004 }, 400, account).headers["Retry-After"]).toBe("42");
    for (const code of [4, 32, 613, 80000, 80014]) expect(err({ message: "limit", code }).headers["Retry-After"]).toBe("60");
    expect(retryAfterSeconds(new Headers({ "x-business-use-case-usage": "not json" }))).toBe(60);
  });

  it("invalid parameters and policy refusals are terminal invalid_input with Meta's user-facing message", () => {
    const e = err({
      message: "Invalid parameter",
      code: 100,
      error_subcode: 1885183,
      error_user_title: "Special ad category",
      error_user_msg: "Housing ads must declare HOUSING.",
    });
    expect(e).toMatchObject({ code: "invalid_input", retryable: false });
    expect(e.message).toBe("platform_a refused the call: Special ad category: Housing ads must declare HOUSING. (code 100, subcode 1885183)");
    expect(err({ message: "(#368) The action attempted has been deemed abusive", code: 368 }).code).toBe("invalid_input");
  });

  it("everything else is a retryable upstream_error", () => {
    expect(err({ message: "An unknown error occurred", code: 1, is_transient: true }, 500)).toMatchObject({ code: "upstream_error", retryable: true });
    expect(err({ message: "Service temporarily unavailable", code: 2 })).toMatchObject({ code: "upstream_error", retryable: true });
  });
});
