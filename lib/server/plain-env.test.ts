import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { usePlainProcessEnv } from "./plain-env";

// Each test file runs in its own process (vitest forks), so replacing process.env here stays here.
describe("usePlainProcessEnv", () => {
  it("makes process.env a plain object that keeps every variable, reads, writes and children's environment", () => {
    process.env.ADLOOM_PLAIN_ENV_BEFORE = "before";
    const before = { ...process.env };
    expect(Object.getPrototypeOf(process.env)).not.toBe(Object.prototype);

    usePlainProcessEnv();
    expect(Object.getPrototypeOf(process.env)).toBe(Object.prototype);
    expect({ ...process.env }).toEqual(before);

    process.env.ADLOOM_PLAIN_ENV_AFTER = "after";
    delete process.env.ADLOOM_PLAIN_ENV_BEFORE;
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion, not a template
    const child = execFileSync("/bin/sh", ["-c", 'echo "${ADLOOM_PLAIN_ENV_AFTER:-unset} ${ADLOOM_PLAIN_ENV_BEFORE:-unset}"']).toString().trim();
    expect(child).toBe("after unset");

    // A second call changes nothing.
    const current = process.env;
    usePlainProcessEnv();
    expect(process.env).toBe(current);
  });
});
