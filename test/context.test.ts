import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { after, before, beforeEach, describe, it } from "node:test";
import { classifyContext, ImageLoader, type ImageLoadOptions } from "../src/context/index";
import { refusedAddressReason } from "../src/context/address";
import { bmpToPng } from "../src/context/bmp";
import { ImageRefusedError } from "../src/context/download";
import { sniffImageType } from "../src/context/image-type";
import { withDeadline } from "../src/context/loader";
import { tempDir } from "./support/files";
import { TestHttpServer } from "./support/http-server";

const IMAGES = path.join(__dirname, "..", "data", "images");
const PNG = readFileSync(path.join(IMAGES, "bar-chart.png"));
const SVG = '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>';

/** The canary: any request reaching it means a refused URL was fetched. */
const canary = new TestHttpServer("127.0.0.1");
/** A second loopback address standing in for a private one where a test treats 127.0.0.1 as public. */
const inner = new TestHttpServer("127.0.0.2");
let canaryURL = "";
let innerURL = "";
before(async () => {
  canaryURL = await canary.start();
  innerURL = await inner.start();
  for (const server of [canary, inner]) server.serve("/x.png", PNG);
});
after(async () => {
  await canary.stop();
  await inner.stop();
});
beforeEach(() => {
  canary.seen.length = 0;
  inner.seen.length = 0;
});

async function refused(source: string, options: ImageLoadOptions, pattern: RegExp): Promise<void> {
  const item = classifyContext(source);
  assert.notEqual(item.kind, "text", `${source} must not be taken for text`);
  await assert.rejects(new ImageLoader(options).load(item as never), (error: unknown) => {
    assert.ok(error instanceof ImageRefusedError, String(error));
    assert.match(error.message, pattern);
    return true;
  });
}

describe("classifying context items", () => {
  it("tells URLs, files, data URIs and text apart", () => {
    assert.equal(classifyContext("https://example.com/a.png").kind, "url");
    assert.equal(classifyContext("HTTP://example.com/chart").kind, "url");
    assert.equal(classifyContext("ftp://example.com/a.png").kind, "url", "refused later by its scheme");
    assert.equal(classifyContext("images/cat.JPG").kind, "file");
    assert.equal(classifyContext("diagram.svg").kind, "file", "refused later, never sent as text");
    assert.equal(classifyContext("file:///tmp/a.png").kind, "file");
    assert.equal(classifyContext("data:image/png;base64,AAAA").kind, "data-uri");
    assert.equal(classifyContext("The chart is in chart.png").kind, "text");
    assert.equal(classifyContext("Sales rose 12% in Q3.").kind, "text");
    // Names with spaces: a path with a folder is a file; a sentence that ends with a path is text.
    assert.deepEqual(classifyContext(" images/my chart.png "), { kind: "file", source: "images/my chart.png" });
    assert.equal(classifyContext("./Q3 sales.webp").kind, "file");
    assert.equal(classifyContext("C:\\Reports\\Q3 sales.png").kind, "file");
    assert.equal(classifyContext("my chart.png").kind, "text", "a bare name with a space is ambiguous: write ./my chart.png");
    assert.equal(classifyContext("The chart is saved as images/chart.png").kind, "text");
    assert.equal(classifyContext("See the figure. It is in images/chart.png").kind, "text");
    assert.equal(classifyContext("Two lines\nimages/chart.png").kind, "text");
  });

  it("refuses an image cut short (a download or copy that stopped) before anything is sent, and loads each whole one", async () => {
    const root = tempDir();
    for (const name of ["bar-chart.png", "temperature.jpg", "shapes.gif", "street-scene.webp"]) {
      const bytes = readFileSync(path.join(__dirname, "..", "data", "images", name));
      writeFileSync(path.join(root, `cut-${name}`), bytes.subarray(0, Math.floor(bytes.length / 2)));
      writeFileSync(path.join(root, name), bytes);
      await new ImageLoader({ imageRoot: root }).load(classifyContext(name) as never);
      await refused(`cut-${name}`, { imageRoot: root }, /has no end|has no trailer|has no end-of-image marker|declares [\d,]+ bytes and has [\d,]+: the file is cut short/);
    }
    await refused(`data:image/png;base64,${readFileSync(path.join(__dirname, "..", "data", "images", "bar-chart.png")).subarray(0, 30).toString("base64")}`, {}, /the PNG has no end \(IEND chunk\): the file is cut short/);
  });

  it("loads a local image whose name holds a space", async () => {
    const root = tempDir();
    mkdirSync(path.join(root, "img"));
    copyFileSync(path.join(__dirname, "..", "data", "images", "bar-chart.png"), path.join(root, "img", "my chart.png"));
    const image = await new ImageLoader({ imageRoot: root }).load(classifyContext("img/my chart.png") as never);
    assert.match(image.dataUri, /^data:image\/png;base64,/);
  });
});

describe("addresses", () => {
  it("refuses loopback, private, link-local, multicast and reserved addresses, IPv4 and IPv6", () => {
    for (const address of ["127.0.0.1", "127.255.0.9", "10.0.0.1", "172.16.5.4", "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0", "224.0.0.1", "240.0.0.1", "255.255.255.255", "198.18.0.1", "::1", "::", "fe80::1", "fc00::1", "fd12::1", "ff02::1", "::ffff:127.0.0.1", "::ffff:7f00:1", "::ffff:10.0.0.1", "64:ff9b::a9fe:a9fe", "2002:7f00:1::1", "2001:db8::1"]) {
      assert.ok(refusedAddressReason(address) !== undefined, address);
    }
    for (const address of ["93.184.216.34", "8.8.8.8", "1.1.1.1", "2606:4700:4700::1111", "2a00:1450:4001::200e", "::ffff:8.8.8.8"]) {
      assert.equal(refusedAddressReason(address), undefined, address);
    }
  });
});

describe("image URLs: no request reaches a private address", () => {
  const spellings = () => [
    `http://127.0.0.1:${canary.port}/x.png`,
    `http://127.1:${canary.port}/x.png`,
    `http://0x7f000001:${canary.port}/x.png`,
    `http://2130706433:${canary.port}/x.png`,
    `http://0177.0.0.1:${canary.port}/x.png`,
    `http://[::1]:${canary.port}/x.png`,
    `http://[::ffff:127.0.0.1]:${canary.port}/x.png`,
    `http://localhost:${canary.port}/x.png`,
    "http://169.254.169.254/latest/meta-data/iam",
    "http://[fe80::1]/x.png",
    "http://10.1.2.3/x.png",
  ];

  it("refuses every spelling of a non-public address, and the canary sees nothing", async () => {
    for (const url of spellings()) await refused(url, {}, /is not a public address \(.+\); pass allowPrivateNetwork: true/);
    await refused("http://internal.example/x.png", { resolve: async () => [{ address: "127.0.0.1", family: 4 }] }, /internal\.example resolves to 127\.0\.0\.1, which is not a public address \(loopback/);
    assert.deepEqual(canary.seen, []);
  });

  it("refuses a host name if any of its addresses is private", async () => {
    const resolve = async () => [
      { address: "93.184.216.34", family: 4 as const },
      { address: "10.0.0.7", family: 4 as const },
    ];
    await refused("http://mixed.example/x.png", { resolve }, /10\.0\.0\.7.*private/);
  });

  it("fetches them when allowPrivateNetwork is on (the canary sees the request)", async () => {
    const image = await new ImageLoader({ allowPrivateNetwork: true }).load({ kind: "url", source: `http://127.1:${canary.port}/x.png` });
    assert.equal(image.mime, "image/png");
    assert.equal(canary.seen.length, 1);
  });

  it("refuses other schemes, user info and backslashes, even with allowPrivateNetwork", async () => {
    const open = { allowPrivateNetwork: true };
    await refused("ftp://example.com/x.png", open, /only http and https URLs are loaded, not ftp:/);
    await refused("gopher://example.com/x.png", open, /only http and https/);
    await refused(`http://user:secret@127.0.0.1:${canary.port}/x.png`, open, /user name or password/);
    await refused(`http://127.0.0.1:${canary.port}@evil.example/x.png`, open, /user name or password|cannot resolve/);
    await refused(`http://evil.example\\@127.0.0.1:${canary.port}/x.png`, open, /backslash/);
    assert.deepEqual(canary.seen, []);
  });

  it("checks every redirect hop, and follows allowed ones", async () => {
    // 127.0.0.1 plays a public host here; 127.0.0.2 plays the private one.
    const policy = (address: string) => (address === "127.0.0.1" ? undefined : refusedAddressReason(address));
    canary.redirect("/to-inner", `${innerURL}/x.png`);
    canary.redirect("/to-file", "file:///etc/passwd");
    canary.redirect("/to-userinfo", `http://a:b@127.0.0.1:${canary.port}/x.png`);
    canary.redirect("/to-self", "/x.png");
    let n = 0;
    canary.routes.set("/loop", (_req, res) => {
      res.statusCode = 302;
      res.setHeader("location", `/loop?${n++}`);
      res.end();
    });
    const options = { addressPolicy: policy };
    await refused(`${canaryURL}/to-inner`, options, /redirect 1 to http:\/\/127\.0\.0\.2:\d+\/x\.png: 127\.0\.0\.2 is not a public address \(loopback/);
    assert.deepEqual(inner.seen, [], "the private target got no request");
    await refused(`${canaryURL}/to-file`, options, /only http and https URLs are loaded, not file:/);
    await refused(`${canaryURL}/to-userinfo`, options, /user name or password/);
    await refused(`${canaryURL}/loop`, options, /more than 5 redirects/);
    const image = await new ImageLoader(options).load({ kind: "url", source: `${canaryURL}/to-self` });
    assert.equal(image.type, "png");
  });

  it("connects to the address it checked, not to a later answer of the resolver", async () => {
    const policy = (address: string) => (address === "127.0.0.1" ? undefined : refusedAddressReason(address));
    let calls = 0;
    const rebinding = async () => [{ address: calls++ === 0 ? "127.0.0.1" : "127.0.0.2", family: 4 as const }];
    const image = await new ImageLoader({ resolve: rebinding, addressPolicy: policy }).load({ kind: "url", source: `http://rebind.example:${canary.port}/x.png` });
    assert.equal(image.type, "png");
    assert.equal(calls, 1, "resolved once");
    assert.deepEqual(canary.seen, [{ path: "/x.png", host: `rebind.example:${canary.port}` }]);
    assert.deepEqual(inner.seen, []);
  });

  it("enforces the size cap while streaming and from Content-Length", async () => {
    const big = Buffer.concat([PNG, Buffer.alloc(2_000_000)]);
    // 64 MiB, streamed with backpressure and no Content-Length: more than any socket buffer holds.
    const total = 64 * 1024 * 1024;
    let written = 0;
    let closedEarly = false;
    canary.routes.set("/stream.png", (_req, res) => {
      res.setHeader("content-type", "image/png");
      const chunk = Buffer.alloc(64 * 1024);
      PNG.copy(chunk);
      const pump = () => {
        while (written < total && !res.destroyed) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", pump);
        }
        res.end();
      };
      res.on("close", () => (closedEarly = written < total));
      pump();
    });
    canary.serve("/declared.png", big);
    const open = { allowPrivateNetwork: true, maxImageBytes: 100_000 };
    await refused(`${canaryURL}/stream.png`, open, /more than the 100,000 bytes allowed \(maxImageBytes\)/);
    for (let waited = 0; !closedEarly && waited < 5000; waited += 50) await new Promise((r) => setTimeout(r, 50)); // the close can lag on a busy machine
    assert.ok(closedEarly, `the download stopped early (${written} of ${total} bytes written)`);
    const declared = big.length.toLocaleString("en-US");
    await refused(`${canaryURL}/declared.png`, open, new RegExp(`the image is ${declared} bytes, more than the 100,000 allowed \\(maxImageBytes\\)`));
  });

  it("gives up after the download timeout", async () => {
    canary.routes.set("/hang.png", () => undefined);
    const start = Date.now();
    await refused(`${canaryURL}/hang.png`, { allowPrivateNetwork: true, downloadTimeoutMs: 300 }, /no complete image within 300 ms \(downloadTimeoutMs\)/);
    assert.ok(Date.now() - start < 3000);
  });

  it("decides the type by the bytes, not the Content-Type, and refuses SVG and non-images", async () => {
    canary.serve("/svg-as-png.png", SVG, "image/png");
    canary.serve("/html.png", "<html>not an image</html>", "image/png");
    canary.serve("/png-as-text", PNG, "text/plain");
    const open = { allowPrivateNetwork: true };
    await refused(`${canaryURL}/svg-as-png.png`, open, /SVG images are refused/);
    await refused(`${canaryURL}/html.png`, open, /not a PNG, JPEG, GIF, WebP or BMP image/);
    const image = await new ImageLoader(open).load({ kind: "url", source: `${canaryURL}/png-as-text` });
    assert.equal(image.mime, "image/png");
  });
});

describe("local image files", () => {
  it("loads images inside the root, by relative path and by file:// URL", async () => {
    const loader = new ImageLoader({ imageRoot: path.join(IMAGES, "..") });
    const byPath = await loader.load({ kind: "file", source: "images/shapes.gif" });
    assert.equal(byPath.mime, "image/gif");
    const byUrl = await loader.load({ kind: "file", source: pathToFileURL(path.join(IMAGES, "temperature.jpg")).toString() });
    assert.equal(byUrl.mime, "image/jpeg");
  });

  it("refuses a named pipe, a folder and a device named like an image, without hanging", async () => {
    const root = tempDir();
    assert.equal(spawnSync("mkfifo", [path.join(root, "pipe.png")]).status, 0);
    mkdirSync(path.join(root, "folder.jpg"));
    symlinkSync("/dev/zero", path.join(root, "zero.png"));
    const options = { imageRoot: root, allowPrivateNetwork: false };
    await refused("pipe.png", options, /not a regular file \(a named pipe\)/);
    await refused("folder.jpg", options, /not a regular file \(a folder\)/);
    // /dev/zero is outside the root as well as a device: refused either way, and at once.
    await refused("zero.png", options, /outside the image root|not a regular file/);
  });

  it("loads a file whose name starts with two dots at the top of the root (it is inside)", async () => {
    const root = tempDir();
    writeFileSync(path.join(root, "..x.png"), PNG);
    const image = await new ImageLoader({ imageRoot: root }).load({ kind: "file", source: "..x.png" });
    assert.equal(image.mime, "image/png");
    await refused("../..x.png", { imageRoot: root }, /outside the image root/);
  });

  it("refuses .. escapes, absolute paths and file:// URLs outside the root, and symlinks that lead out", async () => {
    const dir = tempDir();
    const root = path.join(dir, "root");
    mkdirSync(root);
    writeFileSync(path.join(dir, "secret.png"), PNG);
    symlinkSync(path.join(dir, "secret.png"), path.join(root, "link.png"));
    symlinkSync(dir, path.join(root, "up"));
    const options = { imageRoot: root };
    await refused("../secret.png", options, /outside the image root/);
    await refused(path.join(dir, "secret.png"), options, /outside the image root/);
    await refused(pathToFileURL(path.join(dir, "secret.png")).toString(), options, /outside the image root/);
    await refused("link.png", options, /leads to .*secret\.png, outside the image root/);
    await refused("up/secret.png", options, /leads to .*secret\.png, outside the image root/);
    await refused("missing.png", options, /no such file/);
  });

  it("refuses a file whose bytes are not an image, an SVG, and a file over the size cap", async () => {
    const root = tempDir();
    writeFileSync(path.join(root, "fake.png"), "this is text, not a PNG");
    writeFileSync(path.join(root, "vector.svg"), SVG);
    writeFileSync(path.join(root, "svg-named.jpg"), SVG);
    writeFileSync(path.join(root, "big.png"), Buffer.concat([PNG, Buffer.alloc(50_000)]));
    await refused("fake.png", { imageRoot: root }, /not a PNG, JPEG, GIF, WebP or BMP image/);
    await refused("vector.svg", { imageRoot: root }, /SVG images are refused/);
    await refused("svg-named.jpg", { imageRoot: root }, /SVG images are refused/);
    await refused("big.png", { imageRoot: root, maxImageBytes: 20_000 }, /more than the 20,000 allowed/);
  });
});

describe("data URIs and conversion", () => {
  it("loads base64 images and refuses oversized, non-image, SVG and malformed ones", async () => {
    const loader = new ImageLoader({ maxImageBytes: 20_000 });
    const ok = await loader.load({ kind: "data-uri", source: `data:image/png;base64,${PNG.toString("base64")}` });
    assert.equal(ok.dataUri, `data:image/png;base64,${PNG.toString("base64")}`);
    const big = Buffer.concat([PNG, Buffer.alloc(30_000)]).toString("base64");
    await refused(`data:image/png;base64,${big}`, { maxImageBytes: 20_000 }, /holds about [\d,]+ bytes, more than the 20,000 allowed/);
    await refused(`data:text/plain;base64,${Buffer.from("hi").toString("base64")}`, {}, /text\/plain, not an image/);
    await refused(`data:image/svg+xml;base64,${Buffer.from(SVG).toString("base64")}`, {}, /SVG images are refused/);
    await refused("data:image/png,rawbytes", {}, /only base64 data URIs/);
    await refused("data:image/png;base64,@@@not-base64@@@", {}, /not valid base64/);
    await refused(`data:image/jpeg;base64,${Buffer.from("plain text").toString("base64")}`, {}, /not a PNG, JPEG/);
  });

  it("converts BMP to PNG with the same pixels, and sniffs every format", async () => {
    const bmp = readFileSync(path.join(IMAGES, "pipeline.bmp"));
    const png = bmpToPng(bmp);
    assert.equal(sniffImageType(png), "png");
    assert.equal(png.readUInt32BE(16), 380, "width");
    assert.equal(png.readUInt32BE(20), 120, "height");
    const loaded = await new ImageLoader({ imageRoot: IMAGES }).load({ kind: "file", source: "pipeline.bmp" });
    assert.equal(loaded.mime, "image/png");
    assert.equal(loaded.convertedFrom, "bmp");
    const expected: Record<string, string> = { "bar-chart.png": "png", "temperature.jpg": "jpeg", "shapes.gif": "gif", "street-scene.webp": "webp", "pipeline.bmp": "bmp" };
    for (const [file, type] of Object.entries(expected)) assert.equal(sniffImageType(readFileSync(path.join(IMAGES, file))), type, file);
  });

  it("loads each source once per loader", async () => {
    const loader = new ImageLoader({ allowPrivateNetwork: true });
    const url = `${canaryURL}/x.png`;
    await Promise.all([loader.load({ kind: "url", source: url }), loader.load({ kind: "url", source: url })]);
    await loader.load({ kind: "url", source: url });
    assert.equal(canary.seen.length, 1);
  });
});

describe("image load deadline", () => {
  it("fails a read that does not finish within the deadline, naming the image and the option", async () => {

    const started = Date.now();
    await assert.rejects(withDeadline(new Promise<Buffer>(() => undefined), 60, "photos/cat.png"), (error: unknown) => {
      assert.ok(error instanceof ImageRefusedError);
      assert.match(error.message, /reading photos\/cat\.png took more than 60 ms \(downloadTimeoutMs\)/);
      return true;
    });
    assert.ok(Date.now() - started < 1000);
    assert.equal(await withDeadline(Promise.resolve("done"), 60, "x.png"), "done");
  });
});
