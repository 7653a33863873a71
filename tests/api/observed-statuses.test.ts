import { expect, it } from "vitest";
import { undocumentedStatuses } from "../helpers/observed-statuses";

const doc = {
  paths: {
    "/api/v1/uploads/{id}": { get: { responses: { "200": {}, "404": {} } } },
    "/api/v1/webhooks/deliveries": { get: { responses: { "200": {} } } },
    "/api/v1/webhooks/deliveries/{id}": { post: { responses: { "200": {} } } },
  },
};

it("names each observed status the document does not list for its operation, and judges nothing else", () => {
  expect(
    undocumentedStatuses(doc, [
      { method: "GET", path: "/api/v1/uploads/upl_1", status: 200 },
      { method: "GET", path: "/api/v1/uploads/upl_2", status: 409 },
      { method: "GET", path: "/api/v1/uploads/upl_3", status: 409 },
      { method: "GET", path: "/api/v1/webhooks/deliveries", status: 304 },
      { method: "POST", path: "/api/v1/webhooks/deliveries/whd_1", status: 200 },
      { method: "PATCH", path: "/api/v1/uploads/upl_1", status: 405 }, // no such operation: not judged
      { method: "GET", path: "/api/v1/nothing", status: 404 },
    ]),
  ).toEqual(["GET /api/v1/uploads/{id} 409", "GET /api/v1/webhooks/deliveries 304"]);
});
