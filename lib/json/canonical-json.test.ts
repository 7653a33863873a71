import { expect, it } from "vitest";
import { canonicalJson } from "./canonical-json";

it("gives equal text for equal values whatever the key order, and drops undefined members", () => {
  expect(canonicalJson({ b: [1, { d: 2, c: undefined, a: "x" }], a: null })).toBe('{"a":null,"b":[1,{"a":"x","d":2}]}');
  expect(canonicalJson({ a: 1, b: 2 })).toBe(canonicalJson({ b: 2, a: 1 }));
  expect(canonicalJson([undefined, Number.NaN])).toBe("[null,null]");
});
