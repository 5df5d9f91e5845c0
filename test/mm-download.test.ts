/**
 * Image URLs as real servers answer them, through the loader and a real
 * HTTP server on loopback: a body sent with a Content-Encoding (a bucket
 * whose images were stored gzipped: a browser shows them, so the URL looks
 * right) is undone within the size limit; a page in place of the image (a
 * sign-in or preview link) is refused saying what the server sent; a host
 * whose first address cannot be reached is reached at its next one.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import { after, before, describe, it } from "node:test";
import { ImageLoader } from "../src/context/loader";
import { TestHttpServer } from "./support/http-server";

const PNG = readFileSync(path.join(__dirname, "..", "data", "images", "bar-chart.png"));
const server = new TestHttpServer();
let base = "";

/** Serves `body` at `route` with these headers. */
function serve(route: string, body: Buffer | string, headers: Record<string, string>): void {
  server.routes.set(route, (_req, res) => {
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    res.end(body);
  });
}

before(async () => {
  base = await server.start();
  serve("/gzip.png", gzipSync(PNG), { "content-type": "image/png", "content-encoding": "gzip" });
  serve("/deflate.png", deflateSync(PNG), { "content-type": "image/png", "content-encoding": "deflate" });
  serve("/br.png", brotliCompressSync(PNG), { "content-type": "image/png", "content-encoding": "br" });
  serve("/mislabelled.png", PNG, { "content-type": "image/png", "content-encoding": "gzip" });
  serve("/bomb.png", gzipSync(Buffer.concat([PNG, Buffer.alloc(4_000_000)])), { "content-type": "image/png", "content-encoding": "gzip" });
  serve("/share", "<!doctype html><title>Sign in</title>", { "content-type": "text/html; charset=utf-8" });
  serve("/api", '{"error":"not found"}', { "content-type": "application/json" });
});
after(() => server.stop());

const loader = (): ImageLoader => new ImageLoader({ allowPrivateNetwork: true, maxImageBytes: 1_000_000 });

describe("downloads as servers send them", () => {
  it("undoes gzip, deflate and br, and takes an image labelled compressed that is not as it is", async () => {
    for (const route of ["/gzip.png", "/deflate.png", "/br.png", "/mislabelled.png"]) {
      const image = await loader().load({ kind: "url", source: `${base}${route}` });
      assert.equal(image.dataUri, `data:image/png;base64,${PNG.toString("base64")}`, route);
    }
  });

  it("holds an encoded body to maxImageBytes once it is undone", async () => {
    await assert.rejects(loader().load({ kind: "url", source: `${base}/bomb.png` }), /more than the 1,000,000 bytes allowed once its gzip encoding is undone \(maxImageBytes, --max-image-bytes\)/);
  });

  it("says what the server sent in place of an image", async () => {
    await assert.rejects(loader().load({ kind: "url", source: `${base}/share` }), /^ImageRefusedError: the server sent text\/html: a web page \(a sign-in, preview or error page\?\), not the image itself; give the image's own URL$/);
    await assert.rejects(loader().load({ kind: "url", source: `${base}/api` }), /^ImageRefusedError: the server sent application\/json, not an image$/);
  });
});

describe("a host with several addresses", () => {
  it("goes on to the next address when the first cannot be reached, and fails naming the last when none can", async () => {
    const port = new URL(base).port;
    // 127.0.0.2 is loopback too, but nothing listens there: the connection is refused at once.
    const resolve = async (): Promise<{ address: string; family: 4 }[]> => [
      { address: "127.0.0.2", family: 4 },
      { address: "127.0.0.1", family: 4 },
    ];
    const image = await new ImageLoader({ allowPrivateNetwork: true, resolve }).load({ kind: "url", source: `http://images.test:${port}/mislabelled.png` });
    assert.equal(image.mime, "image/png");
    const none = async (): Promise<{ address: string; family: 4 }[]> => [{ address: "127.0.0.2", family: 4 }];
    await assert.rejects(new ImageLoader({ allowPrivateNetwork: true, resolve: none, downloadTimeoutMs: 5_000 }).load({ kind: "url", source: `http://images.test:${port}/mislabelled.png` }), /download failed: connect ECONNREFUSED 127\.0\.0\.2/);
  });
});

