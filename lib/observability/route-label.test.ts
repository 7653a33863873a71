import { describe, expect, it } from "vitest";
import { routeLabel } from "./route-label";

describe("routeLabel", () => {
  it("replaces ids, keeps route words and tool names, drops the query", () => {
    expect(routeLabel("/api/v1/uploads/upl_3k9x0000000000000000?x=1")).toBe("/api/v1/uploads/:id");
    expect(routeLabel("/api/v1/creatives/crv_abcdefghij0123456789/copy")).toBe("/api/v1/creatives/:id/copy");
    expect(routeLabel("/api/v1/tools/get_upload")).toBe("/api/v1/tools/get_upload");
    expect(routeLabel("/api/media/crv_abcdefghij0123456789/preview")).toBe("/api/media/:id/preview");
    expect(routeLabel("/invite/Zm9vYmFyYmF6cXV4cXV1eHF1dXg")).toBe("/invite/:id");
    expect(routeLabel("/api/v1/uploads/a%00b")).toBe("/api/v1/uploads/:id");
    expect(routeLabel("/_next/static/chunks/app.js")).toBe("/_next/*");
    expect(routeLabel("/a/b/c/d/e/f/g/h")).toBe("/a/b/c/d/e/f/*");
  });
});
