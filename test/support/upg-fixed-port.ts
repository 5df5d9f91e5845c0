/**
 * A forwarder on a fixed local port to a test server on a random one, for
 * fixtures written by older evalframes against a server at that port: the
 * judge's cache keys and batch request ids hold the server's base URL, so a
 * run must name the same URL to find them.
 */
import { createServer, request, type Server } from "node:http";
import { after, before } from "node:test";

/** The port the upgrade fixtures' server listened on (test/fixtures/upgrade). */
export const FIXTURE_PORT = 47311;

/**
 * Forwards every request on 127.0.0.1:`port` to `target()` (a base URL such
 * as http://127.0.0.1:40123/v1; only its host and port are used) from before
 * the test file's tests to after them. Call it at the top of a test file, as
 * `useFakeOpenAI`. `base()` is http://127.0.0.1:`port`/v1, or undefined when
 * the port stayed taken for a minute (the caller skips), never a forwarder on
 * another port.
 */
export function useFixedPortForwarder(target: () => string, port: number = FIXTURE_PORT): { base: () => string | undefined } {
  const server: Server = createServer((req, res) => {
    const to = new URL(target());
    const upstream = request({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers }, (reply) => {
      res.writeHead(reply.statusCode ?? 502, reply.headers);
      reply.pipe(res);
    });
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });
  let listening = false;
  before(async () => {
    // Another test file with fixtures of that server may hold the port for a few seconds (files run in parallel processes).
    for (let tries = 0; tries < 300 && !listening; tries++) {
      if (tries > 0) await new Promise((resolve) => setTimeout(resolve, 200));
      listening = await new Promise<boolean>((resolve) => {
        server.once("error", () => resolve(false));
        server.listen(port, "127.0.0.1", () => resolve(true));
      });
    }
  });
  after(async () => {
    if (!listening) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { base: () => (listening ? `http://127.0.0.1:${port}/v1` : undefined) };
}
