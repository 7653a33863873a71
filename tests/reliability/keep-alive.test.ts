import net from "node:net";
import { describe, expect, inject, it } from "vitest";

/** Sends one request on the socket and resolves with the raw response head and body (Content-Length framed). */
function exchange(socket: net.Socket, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let received = "";
    const onData = (chunk: Buffer) => {
      received += chunk.toString("latin1");
      const end = received.indexOf("\r\n\r\n");
      if (end < 0) return;
      const length = Number(/^content-length: *(\d+)/im.exec(received.slice(0, end))?.[1] ?? 0);
      if (received.length < end + 4 + length) return;
      socket.off("data", onData);
      socket.off("close", onClose);
      resolve(received);
    };
    const onClose = () => reject(new Error(`the server closed the connection; received so far: ${JSON.stringify(received)}`));
    socket.on("data", onData);
    socket.once("close", onClose);
    socket.write(request);
  });
}

describe("kept-alive connections", () => {
  it("stay open between requests for the idle timeout (60 s), which the server advertises, not Node's 5 s", async () => {
    const { hostname, port } = new URL(inject("baseUrl"));
    const socket = net.connect(Number(port), hostname);
    await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject));
    try {
      const request = `GET /api/health HTTP/1.1\r\nHost: ${hostname}:${port}\r\nConnection: keep-alive\r\n\r\n`;
      const first = await exchange(socket, request);
      expect(first).toMatch(/^HTTP\/1\.1 200 /);
      expect(first).toMatch(/^keep-alive: timeout=60\r$/im);
      // Past Node's default of 5 s: a client reusing the connection now must not meet a reset.
      await new Promise((r) => setTimeout(r, 6_000));
      expect(socket.destroyed).toBe(false);
      expect(await exchange(socket, request)).toMatch(/^HTTP\/1\.1 200 /);
    } finally {
      socket.destroy();
    }
  });
});
