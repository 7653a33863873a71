// The test process's fetch keeps an idle connection for 4 s at most, whatever the server's `Keep-Alive: timeout=60`
// hint. With the hint, undici reuses a connection idle for up to 58 s, and the server closes it at 61 s: a worker whose
// event loop was held a few seconds (ffmpeg making a fixture synchronously) then wrote a request onto a connection the
// server had just closed, and the upload failed with EPIPE. Clients of the service retry such writes (the SDK and the CLI
// resend under the same Idempotency-Key); a test's single fetch does not, so it keeps no connection that long.
import { Agent, setGlobalDispatcher } from "undici";

const KEY = Symbol.for("adloom.tests.shortKeepAlive");
const state = globalThis as { [KEY]?: true };
if (!state[KEY]) {
  state[KEY] = true;
  setGlobalDispatcher(new Agent({ keepAliveTimeout: 4_000, keepAliveMaxTimeout: 4_000 }));
}
