import { describe, expect, it } from "vitest";
import { isAppError } from "@/lib/errors";
import { assertTextInput, findTextInputProblem, TEXT_INPUT_LIMITS } from "@/lib/text-input";

describe("findTextInputProblem", () => {
  it("accepts ordinary values of every JSON type, including paired surrogates and controls other than NUL", () => {
    expect(findTextInputProblem(undefined)).toBeNull();
    expect(findTextInputProblem({ a: [1, true, null, "héllo 🎉 e\u0301", { b: "tab\there\nline" }] })).toBeNull();
  });

  it("finds a NUL byte in a nested string and names its path", () => {
    expect(findTextInputProblem({ ids: ["ok", "a\u0000b"] })).toEqual({ path: "ids[1]", reason: expect.stringMatching(/NUL/) });
    expect(findTextInputProblem({ copy: { headline: "\u0000" } })?.path).toBe("copy.headline");
    expect(findTextInputProblem("x\u0000")?.path).toBe("(value)");
    expect(findTextInputProblem({ ads: [{}, {}, { copy: [{ headline: "ok" }, { headline: "\u0000" }] }] })?.path).toBe("ads[2].copy[1].headline");
    expect(findTextInputProblem([["ok", ["\u0000"]]])?.path).toBe("[0][1][0]");
  });

  it("finds unpaired surrogates, high or low, anywhere in a string", () => {
    for (const s of ["\ud800", "a\udc00", "\udfff\ud800", "ok\ud83d"]) {
      expect(findTextInputProblem({ label: s })).toEqual({ path: "label", reason: expect.stringMatching(/surrogate/) });
    }
  });

  it("checks property names too, showing them escaped", () => {
    const problem = findTextInputProblem({ "head\u0000line": "x" });
    expect(problem?.reason).toMatch(/property name/);
    expect(problem?.path).toBe("head\\u0000line");
    expect(findTextInputProblem({ ["k".repeat(TEXT_INPUT_LIMITS.maxKeyLength + 1)]: 1 })?.reason).toMatch(/property name/);
  });

  it("refuses strings over the given limit and nesting deeper than the limit, without recursing into it", () => {
    expect(findTextInputProblem({ name: "x".repeat(11) }, { maxStringLength: 10 })).toEqual({ path: "name", reason: expect.stringMatching(/longer than 10/) });
    expect(findTextInputProblem({ name: "x".repeat(10) }, { maxStringLength: 10 })).toBeNull();
    let deep: unknown = "leaf";
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(findTextInputProblem({ extra: deep })?.reason).toMatch(/deeper than/);
    let ok: unknown = "leaf";
    for (let i = 0; i < TEXT_INPUT_LIMITS.maxDepth - 1; i++) ok = { a: ok };
    expect(findTextInputProblem(ok)).toBeNull();
  });

  it("scans a 1 MB string quickly", () => {
    const started = performance.now();
    expect(findTextInputProblem({ data: "x".repeat(1024 * 1024) + "\u0000" })?.path).toBe("data");
    expect(performance.now() - started).toBeLessThan(200);
  });
});

describe("assertTextInput", () => {
  it("throws a 400 invalid_request naming where and the field", () => {
    try {
      assertTextInput({ id: "a\u0000b" }, "path parameters");
      expect.unreachable();
    } catch (err) {
      expect(isAppError(err)).toBe(true);
      expect(err).toMatchObject({ code: "invalid_request", status: 400 });
      expect((err as Error).message).toBe("Invalid path parameters: id: contains a NUL byte (U+0000), which text cannot hold");
    }
  });

  it("lets the caller choose the error (tools answer invalid_input)", () => {
    expect(() => assertTextInput({ id: "\ud800" }, "arguments", { error: (m) => new Error(`tool: ${m}`) })).toThrow(/^tool: Invalid arguments: id: /);
  });
});
