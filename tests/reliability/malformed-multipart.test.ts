import { describe, expect, inject, it } from "vitest";
import { api, createTenant, type Tenant } from "../helpers/fixtures";
import { jsonBody, rawRequest, requestHead } from "../helpers/raw-http";
import { makeImage, storedFiles } from "../uploads/helpers";

const B = "----adloomRawBoundary";
const filePartHead = (fileNameParam: string, type = "image/png") =>
  `--${B}\r\nContent-Disposition: form-data; name="files"; ${fileNameParam}\r\nContent-Type: ${type}\r\n\r\n`;

/** A multipart POST with an honest Content-Length (the body really is that long). */
function post(tenant: Tenant, body: Buffer, extra: [string, string][] = []): (Buffer | string)[] {
  const host = new URL(inject("baseUrl")).host;
  return [
    requestHead("POST", "/api/v1/uploads", host, [
      ["Authorization", `Bearer ${tenant.key}`],
      ["Content-Type", `multipart/form-data; boundary=${B}`],
      ["Content-Length", String(body.length)],
      ...extra,
    ]),
    body,
  ];
}

async function expectPromptRefusal(tenant: Tenant, chunks: (Buffer | string)[]) {
  const res = await rawRequest(inject("baseUrl"), chunks, { timeoutMs: 2_000 });
  expect(res.timedOut, `no answer within 2 s (${res.elapsedMs} ms)`).toBe(false);
  expect(res.status).toBe(400);
  expect(jsonBody(res)).toEqual({ error: { code: "invalid_request", message: expect.any(String) } });
  // Nothing behind: no stored file and no upload row.
  expect(storedFiles(tenant.workspaceId)).toEqual([]);
  expect((await api(tenant.key)("/api/v1/uploads")).body.uploads).toEqual([]);
  return jsonBody(res).error.message as string;
}

describe("malformed multipart bodies get a prompt 400 and leave nothing behind", () => {
  it("a body that ends inside a file part, before the closing boundary (honest Content-Length)", async () => {
    const tenant = await createTenant();
    const png = await makeImage("png");
    await expectPromptRefusal(tenant, post(tenant, Buffer.concat([Buffer.from(filePartHead('filename="a.png"')), png])));
  });

  it("a body that ends after a complete part, without the closing boundary", async () => {
    const tenant = await createTenant();
    const png = await makeImage("png");
    await expectPromptRefusal(tenant, post(tenant, Buffer.concat([Buffer.from(filePartHead('filename="a.png"')), png, Buffer.from("\r\n")])));
  });

  it("a body that ends after a field, without the closing boundary", async () => {
    const tenant = await createTenant();
    await expectPromptRefusal(tenant, post(tenant, Buffer.from(`--${B}\r\nContent-Disposition: form-data; name="platform"\r\n\r\nplatform_a\r\n`)));
  });

  it("a body that ends inside a part's headers", async () => {
    const tenant = await createTenant();
    await expectPromptRefusal(tenant, post(tenant, Buffer.from(`--${B}\r\nContent-Disposition: form-data; name="files"; filename="a.p`)));
  });

  it("a raw CR inside a quoted file name", async () => {
    const tenant = await createTenant();
    const png = await makeImage("png");
    const body = Buffer.concat([Buffer.from(filePartHead('filename="a\rb.png"'), "latin1"), png, Buffer.from(`\r\n--${B}--\r\n`)]);
    await expectPromptRefusal(tenant, post(tenant, body));
  });

  it("a raw NUL byte inside a file name", async () => {
    const tenant = await createTenant();
    const png = await makeImage("png");
    const body = Buffer.concat([Buffer.from(filePartHead('filename="a\u0000b.png"'), "latin1"), png, Buffer.from(`\r\n--${B}--\r\n`)]);
    await expectPromptRefusal(tenant, post(tenant, body));
  });

  it("an encoded NUL in filename* (RFC 5987), named in the answer", async () => {
    const tenant = await createTenant();
    const png = await makeImage("png");
    const body = Buffer.concat([Buffer.from(filePartHead("filename*=UTF-8''a%00b.png")), png, Buffer.from(`\r\n--${B}--\r\n`)]);
    expect(await expectPromptRefusal(tenant, post(tenant, body))).toMatch(/file ?name/i);
  });

  it("a second good file after a file whose name holds a NUL stores neither", async () => {
    const tenant = await createTenant();
    const png = await makeImage("png");
    const body = Buffer.concat([
      Buffer.from(filePartHead('filename="good.png"')),
      png,
      Buffer.from("\r\n"),
      Buffer.from(filePartHead("filename*=UTF-8''bad%00.png")),
      png,
      Buffer.from(`\r\n--${B}--\r\n`),
    ]);
    await expectPromptRefusal(tenant, post(tenant, body));
  });

  it("a body with no boundary line at all", async () => {
    const tenant = await createTenant();
    await expectPromptRefusal(tenant, post(tenant, Buffer.from("this is not multipart at all")));
  });

  it("an empty body", async () => {
    const tenant = await createTenant();
    await expectPromptRefusal(tenant, post(tenant, Buffer.alloc(0)));
  });

  it("a chunked body whose last chunk comes before the closing boundary", async () => {
    const tenant = await createTenant();
    const png = await makeImage("png");
    const payload = Buffer.concat([Buffer.from(filePartHead('filename="a.png"')), png]);
    const host = new URL(inject("baseUrl")).host;
    await expectPromptRefusal(tenant, [
      requestHead("POST", "/api/v1/uploads", host, [
        ["Authorization", `Bearer ${tenant.key}`],
        ["Content-Type", `multipart/form-data; boundary=${B}`],
        ["Transfer-Encoding", "chunked"],
      ]),
      Buffer.concat([Buffer.from(`${payload.length.toString(16)}\r\n`), payload, Buffer.from("\r\n0\r\n\r\n")]),
    ]);
  });

  it("NUL bytes in the platform and folderId fields name the field", async () => {
    const tenant = await createTenant();
    const png = await makeImage("png");
    for (const field of ["platform", "folderId"]) {
      const body = Buffer.concat([
        Buffer.from(`--${B}\r\nContent-Disposition: form-data; name="${field}"\r\n\r\nx\u0000y\r\n`, "latin1"),
        Buffer.from(filePartHead('filename="a.png"')),
        png,
        Buffer.from(`\r\n--${B}--\r\n`),
      ]);
      expect(await expectPromptRefusal(tenant, post(tenant, body))).toContain(field);
    }
  });
});
