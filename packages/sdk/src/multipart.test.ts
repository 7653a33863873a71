import { describe, expect, it } from "vitest";
import { multipartStream, prepareFiles } from "./multipart.js";

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
