import { expect, it } from "vitest";
import { inject } from "vitest";

it("serves an OpenAPI 3.1 document generated from the operations, with every error response", async () => {
  const res = await fetch(`${inject("baseUrl")}/docs/openapi.json`);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toContain("application/json");
  const doc = await res.json();
  expect(doc.openapi).toBe("3.1.0");
  const me = doc.paths["/api/v1/me"].get;
  expect(me.operationId).toBe("getMe");
  // 400: ambiguous credentials or unusable header text (issue 11), documented since the status check (issue 16).
  expect(Object.keys(me.responses).sort()).toEqual(["200", "400", "401", "402", "403", "409", "429", "431", "500"]);
  expect(me.responses["200"].content["application/json"].schema.properties.account.$ref).toBe("#/components/schemas/Account");
  const account = doc.components.schemas.Account;
  expect(account.required.sort()).toEqual(["credits", "email", "id", "name", "plan", "trialEndsAt"]);
  expect(doc.components.schemas.Error.properties.error.required).toEqual(["code", "message"]);
  expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });

  // Every $ref points at a component that exists.
  const refs = JSON.stringify(doc).match(/"\$ref":"#\/components\/schemas\/[^"]+"/g) ?? [];
  for (const ref of refs) expect(doc.components.schemas).toHaveProperty(ref.split("/").pop()!.replace(/"$/, ""));
  // Every mutating operation documents the Idempotency-Key header and its 409.
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(item)) {
      if (method === "get" || method === "head") continue;
      expect(
        op.parameters.map((p: any) => p.name),
        `${method} ${path}`,
      ).toContain("Idempotency-Key");
      expect(op.responses, `${method} ${path}`).toHaveProperty("409");
    }
  }
});
