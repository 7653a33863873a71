import { describe, expect, it } from "vitest";
import { multipartBlob, multipartStream, prepareFiles, type UploadProgress } from "./multipart.js";

describe("streamed multipart bodies", () => {
  it("pulls file bytes only as the body is read (a large file never sits in memory)", async () => {
    let produced = 0;
    async function* big() {
      for (let i = 0; i < 400; i++) {
        produced++;
        yield new Uint8Array(512 * 1024); // 400 x 512 KB = 200 MB
      }
    }
    const files = await prepareFiles([{ stream: big(), name: 'clip "1".mp4', size: 400 * 512 * 1024 }]);
    const reader = multipartStream("b0undary", { platform: "platform_a" }, files, "files").getReader();
    const head = new TextDecoder().decode((await reader.read()).value);
    expect(head).toContain('name="platform"');
    const fileHeader = new TextDecoder().decode((await reader.read()).value);
    expect(fileHeader).toContain('filename="clip %221%22.mp4"');
    expect(fileHeader).toContain("Content-Type: video/mp4");
    await reader.read();
    expect(produced).toBeLessThanOrEqual(2);
    let bytes = 512 * 1024;
    let tail = "";
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (value.byteLength === 512 * 1024) bytes += value.byteLength;
      else tail += new TextDecoder().decode(value);
    }
    expect(bytes).toBe(400 * 512 * 1024);
    expect(tail).toBe("\r\n--b0undary--\r\n");
  });
});

describe("Blob multipart bodies (browsers: no streamed request bodies over HTTP/1.1)", () => {
  it("holds the same bytes as the streamed body, and reports each file sent once the server answered", async () => {
    const bytes = new Uint8Array([137, 80, 78, 71, 1, 2, 3]);
    const inputs = () => [
      { data: new Blob([bytes]), name: "a.png" },
      { stream: new Blob([bytes, bytes]).stream(), name: 'b "2".png' },
    ];
    const fields = { platform: "platform_b", folderId: undefined };
    const streamed = new Uint8Array(await new Response(multipartStream("bnd", fields, await prepareFiles(inputs()), "files")).arrayBuffer());
    const progress: UploadProgress[] = [];
    const { body, sent } = await multipartBlob("bnd", fields, await prepareFiles(inputs()), "files", (p) => progress.push(p));
    expect(new Uint8Array(await body.arrayBuffer())).toEqual(streamed);
    expect(progress.map((p) => [p.index, p.loaded, p.total])).toEqual([
      [0, 0, 7],
      [1, 0, 14],
    ]);
    sent();
    expect(progress.slice(2).map((p) => [p.index, p.loaded, p.total])).toEqual([
      [0, 7, 7],
      [1, 14, 14],
    ]);
  });
});
