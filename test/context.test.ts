import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { get } from "node:http";
import { copyFileSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { inflateSync } from "node:zlib";
import { after, before, beforeEach, describe, it } from "node:test";
import { classifyContext, ImageLoader, type ImageLoadOptions } from "../src/context/index";
import { refusedAddressReason } from "../src/context/address";
import { bmpToPng, bmpToPngAsync, SLICE_PIXELS } from "../src/context/bmp";
import { ImageRefusedError } from "../src/context/download";
import { incompleteImage, sniffImageType } from "../src/context/image-type";
import { withDeadline } from "../src/context/loader";
import { pngChunk } from "../src/context/png";
import { animatedWebp, apngOf, gifOf } from "./support/animated-images";
import { tempDir } from "./support/files";
import { TestHttpServer } from "./support/http-server";

const IMAGES = path.join(__dirname, "..", "data", "images");
const PNG = readFileSync(path.join(IMAGES, "bar-chart.png"));
const SVG = '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>';

/** A 1×1 GIF: header, global colour table, graphic control extension, one image, trailer. */
const GIF_1PX = Buffer.from("47494638396101000100800000ffffff00000021f90401000000002c00000000010001000002024401003b", "hex");

/** A JPEG segment: marker and length-prefixed body. */
function segment(marker: number, body: Buffer): Buffer {
  const head = Buffer.from([0xff, marker, 0, 0]);
  head.writeUInt16BE(body.length + 2, 2);
  return Buffer.concat([head, body]);
}

/**
 * The structure of a progressive JPEG: an EXIF APP1 holding a thumbnail (its
 * own SOI…EOI), two scans whose entropy-coded data hold stuffed bytes
 * (FF 00), restart markers and fill bytes, each scan with its own tables.
 */
function progressiveJpeg(): Buffer {
  const thumbnail = Buffer.from("ffd8ffdb0004ffd9", "hex");
  return Buffer.concat([
    Buffer.from("ffd8", "hex"),
    segment(0xe1, Buffer.concat([Buffer.from("Exif\0\0", "latin1"), thumbnail])),
    segment(0xdb, Buffer.alloc(65, 1)),
    segment(0xc2, Buffer.from("0800100010010100", "hex")),
    segment(0xc4, Buffer.alloc(20, 2)),
    segment(0xda, Buffer.from("0101000000", "hex")),
    Buffer.from("12ff0034ffd056ff00ffd17800", "hex"),
    segment(0xc4, Buffer.alloc(20, 3)),
    segment(0xda, Buffer.from("010100013f", "hex")),
    Buffer.from("9aff00bcffd2deffff", "hex"),
    Buffer.from("ffd9", "hex"),
  ]);
}

/** A BMP with a 40-byte header and a palette of [r, g, b] colours. */
function bmpFile(width: number, height: number, bpp: number, compression: number, palette: readonly (readonly number[])[], pixels: Buffer): Buffer {
  const offset = 14 + 40 + palette.length * 4;
  const out = Buffer.alloc(offset + pixels.length);
  out.write("BM", 0, "ascii");
  out.writeUInt32LE(out.length, 2);
  out.writeUInt32LE(offset, 10);
  out.writeUInt32LE(40, 14);
  out.writeInt32LE(width, 18);
  out.writeInt32LE(height, 22);
  out.writeUInt16LE(1, 26);
  out.writeUInt16LE(bpp, 28);
  out.writeUInt32LE(compression, 30);
  out.writeUInt32LE(pixels.length, 34);
  out.writeUInt32LE(palette.length, 46);
  palette.forEach(([r, g, b], i) => out.set([b!, g!, r!, 0], 54 + i * 4));
  pixels.copy(out, offset);
  return out;
}

/** The pixels of a PNG evalframe wrote (RGBA, no filtering), as rows of "r,g,b,a" strings. */
function pngPixels(png: Buffer): string[][] {
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  const idat = png.indexOf("IDAT");
  const raw = inflateSync(png.subarray(idat + 4, idat + 4 + png.readUInt32BE(idat - 4)));
  return Array.from({ length: height }, (_, y) => Array.from({ length: width }, (_, x) => [...raw.subarray(y * (width * 4 + 1) + 1 + x * 4, y * (width * 4 + 1) + 5 + x * 4)].join(",")));
}

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

  it("takes .jfif, .jpe and .jfi names for JPEG images, and a URL with a space for a URL", async () => {
    for (const name of ["photo.jfif", "scans/page.JPE", "old/pic.jfi", "scans/my page.jfif"]) assert.equal(classifyContext(name).kind, "file", name);
    assert.deepEqual(classifyContext("https://x.org/a b.png"), { kind: "url", source: "https://x.org/a b.png" });
    assert.equal(classifyContext("https://x.org is where the chart lives").kind, "text");
    const root = tempDir();
    copyFileSync(path.join(IMAGES, "temperature.jpg"), path.join(root, "photo.jfif"));
    const image = await new ImageLoader({ imageRoot: root }).load(classifyContext("photo.jfif") as never);
    assert.equal(image.mime, "image/jpeg");
    canary.serve("/my%20chart.png", PNG);
    const spaced = await new ImageLoader({ allowPrivateNetwork: true }).load(classifyContext(`${canaryURL}/my chart.png`) as never);
    assert.equal(spaced.type, "png", "the space is sent encoded");
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

  it("loads a complete image with bytes after its end (a Motion Photo's video, padding), as it is", async () => {
    const root = tempDir();
    // A Motion Photo appends an MP4 to the JPEG; the trailer is longer than 1 KB and holds no end marker at its end.
    const mp4 = Buffer.concat([Buffer.from("\x00\x00\x00\x18ftypmp42", "latin1"), Buffer.alloc(4096, 0x2a)]);
    const cases: Record<string, Buffer> = {
      "motion.jpg": Buffer.concat([readFileSync(path.join(IMAGES, "temperature.jpg")), mp4]),
      "padded.png": Buffer.concat([PNG, Buffer.alloc(200)]),
      "padded.gif": Buffer.concat([readFileSync(path.join(IMAGES, "shapes.gif")), Buffer.alloc(40)]),
      "padded.webp": Buffer.concat([readFileSync(path.join(IMAGES, "street-scene.webp")), Buffer.alloc(40)]),
      "progressive.jpg": Buffer.concat([progressiveJpeg(), mp4]),
    };
    for (const [name, bytes] of Object.entries(cases)) {
      writeFileSync(path.join(root, name), bytes);
      const image = await new ImageLoader({ imageRoot: root }).load({ kind: "file", source: name });
      assert.equal(image.dataUri.slice(image.dataUri.indexOf(",") + 1), bytes.toString("base64"), `${name} is sent as it is`);
    }
  });

  it("refuses a cut image whose last bytes happen to look like an end marker", async () => {
    const jpeg = progressiveJpeg();
    const thumbnailEnd = jpeg.indexOf(Buffer.from("ffd9", "hex")) + 2; // the EXIF thumbnail's end, inside APP1
    const secondScan = jpeg.lastIndexOf(Buffer.from("ffda", "hex"));
    const withText = Buffer.concat([PNG.subarray(0, 33), pngChunk("tEXt", Buffer.from("Comment\0IEND")), PNG.subarray(33)]);
    const cases: [string, Buffer, RegExp][] = [
      ["thumb.jpg", jpeg.subarray(0, thumbnailEnd), /the JPEG has no end-of-image marker: the file is cut short/],
      ["scan.jpg", jpeg.subarray(0, secondScan + 14), /the JPEG has no end-of-image marker/],
      ["text.png", withText.subarray(0, 33 + 12 + 12), /the PNG has no end \(IEND chunk\): the file is cut short/],
      // Cut inside an image's data, right after a sub-block byte that is 0x3B (the trailer's value).
      ["cut.gif", Buffer.concat([GIF_1PX.subarray(0, GIF_1PX.length - 3), Buffer.from([0x3b])]), /the GIF has no trailer: the file is cut short/],
    ];
    const root = tempDir();
    for (const [name, bytes, pattern] of cases) {
      writeFileSync(path.join(root, name), bytes);
      await refused(name, { imageRoot: root }, pattern);
    }
    assert.equal(incompleteImage("png", withText), undefined, "the whole PNG with IEND in a text chunk is complete");
    assert.equal(incompleteImage("gif", GIF_1PX), undefined);
  });

  it("finds the end of a 10 MB JPEG quickly", () => {
    const data = Buffer.alloc(10 * 1024 * 1024);
    for (let i = 0; i < data.length; i++) data[i] = (i * 2654435761) >>> 24;
    for (let i = data.indexOf(0xff); i >= 0 && i + 1 < data.length; i = data.indexOf(0xff, i + 2)) data[i + 1] = 0x00; // stuffed, as an encoder writes them
    const jpeg = Buffer.concat([progressiveJpeg().subarray(0, -2), data, Buffer.from("ffd9", "hex")]);
    const started = performance.now();
    assert.equal(incompleteImage("jpeg", jpeg), undefined);
    assert.match(incompleteImage("jpeg", jpeg.subarray(0, -2)) ?? "", /cut short/);
    assert.ok(performance.now() - started < 1000, `took ${Math.round(performance.now() - started)} ms`);
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

  it("judges IPv6 addresses that carry an IPv4 address by that address: mapped, translated, NAT64, 6to4, Teredo", () => {
    const refusedAs: Record<string, RegExp> = {
      "::ffff:0:a00:1": /^private \(10\.0\.0\.0\/8\), inside an IPv4-translated IPv6 address \(::ffff:0:0:0\/96\)$/,
      "::ffff:0:127.0.0.1": /^loopback .*IPv4-translated/,
      "64:ff9b:1::a00:1": /^private \(10\.0\.0\.0\/8\), inside a local-use NAT64 address \(64:ff9b:1::\/48\)$/,
      "64:ff9b:1::a9fe:a9fe": /^link-local .*local-use NAT64/,
      "64:ff9b:1:ab::808:808": /^local-use NAT64 \(64:ff9b:1::\/48\) with its IPv4 address outside the last 32 bits/,
      "64:ff9b::c0a8:101": /^private \(192\.168\.0\.0\/16\), inside a NAT64 address/,
      "2002:a00:1::1": /^private \(10\.0\.0\.0\/8\), inside a 6to4 address \(2002::\/16\)$/,
      "2002:c0a8:101::1": /^private \(192\.168/,
      "2002:a9fe:a9fe::": /^link-local/,
      // Teredo: server 65.54.227.120, client 10.0.0.1 stored inverted (f5ff:fffe).
      "2001:0:4136:e378:8000:63bf:f5ff:fffe": /^private \(10\.0\.0\.0\/8\), inside a Teredo address \(2001::\/32\)$/,
      // A Teredo address whose client is public is still a tunnel the download would go through: refused.
      "2001:0:4136:e378:8000:63bf:f7f7:f7f7": /^Teredo \(2001::\/32\)/,
    };
    for (const [address, pattern] of Object.entries(refusedAs)) assert.match(refusedAddressReason(address) ?? "(public)", pattern, address);
    for (const address of ["::ffff:0:808:808", "64:ff9b:1::808:808", "64:ff9b::808:808", "2002:808:808::1"]) {
      assert.equal(refusedAddressReason(address), undefined, `${address} carries a public IPv4 address`);
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
    `http://[::ffff:0:7f00:1]:${canary.port}/x.png`,
    `http://[64:ff9b:1::7f00:1]:${canary.port}/x.png`,
    `http://[2002:7f00:1::1]:${canary.port}/x.png`,
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
    canary.redirect("/to-signed", `${innerURL}/x.png?X-Amz-Signature=SECRET#frag`);
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
    await refused(`${canaryURL}/to-signed`, options, /^redirect 1 to http:\/\/127\.0\.0\.2:\d+\/x\.png\?…: 127\.0\.0\.2 is not a public address/);
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
    await refused(`${canaryURL}/stream.png`, open, /more than the 100,000 bytes allowed \(maxImageBytes, --max-image-bytes\)/);
    for (let waited = 0; !closedEarly && waited < 5000; waited += 50) await new Promise((r) => setTimeout(r, 50)); // the close can lag on a busy machine
    assert.ok(closedEarly, `the download stopped early (${written} of ${total} bytes written)`);
    const declared = big.length.toLocaleString("en-US");
    await refused(`${canaryURL}/declared.png`, open, new RegExp(`the image is ${declared} bytes, more than the 100,000 allowed \\(maxImageBytes, --max-image-bytes\\)`));
  });

  it("gives up after the download timeout", async () => {
    canary.routes.set("/hang.png", () => undefined);
    const start = Date.now();
    await refused(`${canaryURL}/hang.png`, { allowPrivateNetwork: true, downloadTimeoutMs: 300 }, /no complete image within 300 ms \(downloadTimeoutMs, --download-timeout-ms\)/);
    assert.ok(Date.now() - start < 3000);
  });

  it("tries a busy image host again (429, 503, a connection cut mid-image) within the timeout, and not a 404", async () => {
    const seen = (p: string): number => canary.seen.filter((r) => r.path === p).length;
    let busy = 0;
    canary.routes.set("/busy.png", (_req, res) => {
      busy++;
      if (busy === 1) res.writeHead(503).end("busy");
      else if (busy === 2) res.writeHead(429, { "retry-after": "0" }).end("slow down");
      else if (busy === 3) {
        res.writeHead(200, { "content-type": "image/png", "content-length": String(PNG.length) });
        res.write(PNG.subarray(0, PNG.length >> 1), () => res.socket?.destroy());
      } else res.writeHead(200, { "content-type": "image/png", "content-length": String(PNG.length) }).end(PNG);
    });
    const image = await new ImageLoader({ allowPrivateNetwork: true }).load({ kind: "url", source: `${canaryURL}/busy.png` });
    assert.equal(image.mime, "image/png");
    assert.equal(seen("/busy.png"), 4);

    canary.routes.set("/down.png", (_req, res) => void res.writeHead(503).end("down"));
    await refused(`${canaryURL}/down.png`, { allowPrivateNetwork: true }, /^the server answered HTTP 503 \(4 tries\)$/);
    assert.equal(seen("/down.png"), 4);

    canary.routes.set("/later.png", (_req, res) => void res.writeHead(429, { "retry-after": "3600" }).end("come back in an hour"));
    await refused(`${canaryURL}/later.png`, { allowPrivateNetwork: true }, /^the server answered HTTP 429, and asked to wait 3600 s: no time left to try again within 10,000 ms \(downloadTimeoutMs/);
    assert.equal(seen("/later.png"), 1, "not asked again before the time it gave");

    await refused(`${canaryURL}/missing.png`, { allowPrivateNetwork: true }, /^the server answered HTTP 404$/);
    assert.equal(seen("/missing.png"), 1, "a 404 is not tried again");
  });

  it("a download timeout longer than Node's timers hold (over 24.8 days) is taken as that, not as no time at all", async () => {
    const image = await new ImageLoader({ allowPrivateNetwork: true, downloadTimeoutMs: 3_000_000_000 }).load({ kind: "url", source: `${canaryURL}/x.png` });
    assert.equal(image.mime, "image/png");
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

  it("converts run-length encoded BMPs (RLE8, RLE4) to PNG with the right pixels", async () => {
    const [R, G, B, W, T] = ["255,0,0,255", "0,255,0,255", "0,0,255,255", "255,255,255,255", "0,0,0,0"];
    const palette = [[255, 0, 0], [0, 255, 0], [0, 0, 255], [255, 255, 255]];
    // Rows are stored bottom-up. Bottom: an absolute run of 3 (padded to a word), a run of 1, end of line.
    // Middle: a run of 6 on a 4-pixel row (clipped), end of line. Top: a delta of 2 columns, a run of 2, end of bitmap.
    const rle8 = bmpFile(4, 3, 8, 1, palette, Buffer.from("0003020001000103 0000 0600 0000 00020200 0202 0001".replace(/ /g, ""), "hex"));
    assert.deepEqual(pngPixels(bmpToPng(rle8)), [
      [T, T, B, B],
      [R, R, R, R],
      [B, R, G, W],
    ], "pixels the delta skips are transparent");
    // RLE4: a run alternates two nibbles; an absolute run of 5 nibbles takes 3 bytes, padded to 4.
    const rle4 = bmpFile(4, 2, 4, 2, palette, Buffer.from("0412 0000 0005 312310 00 0001".replace(/ /g, ""), "hex"));
    assert.deepEqual(pngPixels(bmpToPng(rle4)), [
      [W, G, B, W],
      [G, B, G, B],
    ]);
    const root = tempDir();
    writeFileSync(path.join(root, "rle.bmp"), rle8);
    const loaded = await new ImageLoader({ imageRoot: root }).load({ kind: "file", source: "rle.bmp" });
    assert.equal(loaded.mime, "image/png");
    assert.equal(loaded.convertedFrom, "bmp");
  });

  it("refuses a cut or hostile run-length BMP without writing outside it or looping forever", () => {
    const palette = [[255, 0, 0], [0, 255, 0]];
    const convert = (hex: string) => bmpToPng(bmpFile(2, 2, 8, 1, palette, Buffer.from(hex.replace(/ /g, ""), "hex")));
    assert.throws(() => convert("0201 0000"), /ends before its end-of-bitmap marker: the file is cut short/);
    assert.throws(() => convert("0005 0001"), /ends inside an absolute run: the file is cut short/);
    assert.throws(() => convert("0207"), /colour 7 beyond its palette/);
    assert.throws(() => bmpToPng(bmpFile(2, 2, 8, 2, palette, Buffer.from("0001", "hex"))), /compression 2 \(RLE4\) needs 4 bits per pixel, this one has 8/);
    // Runs far past the row, a delta far past the image, then data that never ends the bitmap: the rows past the last are not written.
    const png = convert(`ff01 0002ffff ${"ff01".repeat(10_000)}`);
    assert.deepEqual(pngPixels(png), [["0,0,0,0", "0,0,0,0"], ["0,255,0,255", "0,255,0,255"]]);
  });

  it("converts without holding the event loop, to the same bytes as before (pipeline.bmp's PNG is pinned), RLE and bit fields too", async () => {
    const bmp = readFileSync(path.join(IMAGES, "pipeline.bmp"));
    const sha = (png: Buffer) => createHash("sha256").update(png).digest("hex");
    // The PNG bmpToPng gave before the conversion was sliced.
    assert.equal(sha(bmpToPng(bmp)), "f75e710dec7e434d8ba0ed3ceb98317fbacf961a9c1d342db0d2e447f415e4bb");
    assert.equal(sha(await bmpToPngAsync(bmp)), "f75e710dec7e434d8ba0ed3ceb98317fbacf961a9c1d342db0d2e447f415e4bb");
    const loaded = await new ImageLoader({ imageRoot: IMAGES }).load({ kind: "file", source: "pipeline.bmp" });
    assert.equal(loaded.dataUri, `data:image/png;base64,${bmpToPng(bmp).toString("base64")}`);
    const palette = [[255, 0, 0], [0, 255, 0], [0, 0, 255], [255, 255, 255]];
    for (const small of [
      bmpFile(4, 3, 8, 1, palette, Buffer.from("0003020001000103000006000000000202000202 0001".replace(/ /g, ""), "hex")),
      bmpFile(4, 2, 4, 2, palette, Buffer.from("04120000000531231000 0001".replace(/ /g, ""), "hex")),
    ]) {
      assert.ok((await bmpToPngAsync(small)).equals(bmpToPng(small)));
    }
    await assert.rejects(bmpToPngAsync(bmpFile(2, 2, 8, 1, palette.slice(0, 2), Buffer.from("0201 0000".replace(/ /g, ""), "hex"))), /ends before its end-of-bitmap marker/);

    // A large BMP, of more pixels than several slices: 24-bit, and run-length encoded (a small file of many pixels).
    const side = 2048;
    const stride = side * 3;
    const pixels = Buffer.alloc(stride * side);
    for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 7 + (i >> 13)) & 255;
    const large = bmpFile(side, side, 24, 0, [], pixels);
    const runs = Buffer.from(Array.from({ length: side }, () => [...Array.from({ length: side / 128 }, () => [128, 2]).flat(), 0, 0]).flat().concat([0, 1]));
    const rle = bmpFile(side, side, 8, 1, palette, runs);
    assert.ok(side * side > 4 * SLICE_PIXELS);
    for (const [name, file] of [["24-bit", large], ["RLE8", rle]] as const) {
      // While it converts, the event loop turns (timers and I/O run): a request to a local server is answered before it ends.
      let turns = 0;
      let converting = true;
      const turn = (): void => {
        turns++;
        if (converting) setImmediate(turn);
      };
      setImmediate(turn);
      const answered = new Promise<string>((resolve, reject) => get(`${canaryURL}/x.png`, (res) => res.resume().on("end", () => resolve("the request"))).on("error", reject));
      const converted = bmpToPngAsync(file).then((png) => {
        converting = false;
        return png;
      });
      assert.equal(await Promise.race([answered, converted.then(() => "the conversion")]), "the request", `${name}: the request is answered while the BMP converts`);
      const png = await converted;
      assert.ok(turns >= 4, `${name}: the event loop turned ${turns} times during the conversion`);
      assert.ok(png.equals(bmpToPng(file)), `${name}: the same bytes as at once`);
    }
  });

  it("loads each source once per loader", async () => {
    const loader = new ImageLoader({ allowPrivateNetwork: true });
    const url = `${canaryURL}/x.png`;
    await Promise.all([loader.load({ kind: "url", source: url }), loader.load({ kind: "url", source: url })]);
    await loader.load({ kind: "url", source: url });
    assert.equal(canary.seen.length, 1);
  });
});

describe("animated images", () => {
  const root = tempDir();
  const files: Record<string, Buffer> = {
    "spinner.gif": gifOf(3, true),
    "two-frames-no-loop.gif": gifOf(2, false),
    "still-with-loop.gif": gifOf(1, true),
    "moving.png": apngOf(2),
    "one-frame-apng.png": apngOf(1),
    "moving.webp": animatedWebp(2),
    "unflagged.webp": animatedWebp(1, false),
  };
  before(() => {
    for (const [name, bytes] of Object.entries(files)) writeFileSync(path.join(root, name), bytes);
  });

  it("refuses an animated GIF, APNG and WebP (files, URLs and data URIs) with why and what to send instead", async () => {
    for (const name of Object.keys(files)) assert.equal(incompleteImage(sniffImageType(files[name]!)!, files[name]!), undefined, `${name} is a complete image`);
    const instead = "vision models read only its first frame, or refuse it; send the frame that matters as a still PNG or JPEG";
    const open = { imageRoot: root };
    await refused("spinner.gif", open, new RegExp(`^the GIF is animated \\(3 frames, looping\\): ${instead}$`));
    await refused("two-frames-no-loop.gif", open, /^the GIF is animated \(2 frames\)/);
    await refused("moving.png", open, new RegExp(`^the PNG is animated \\(an APNG of 2 frames\\): ${instead}$`));
    await refused("moving.webp", open, new RegExp(`^the WebP is animated \\(2 frames\\): ${instead}$`));
    await refused("unflagged.webp", open, /^the WebP is animated \(1 frame\)/);
    await refused(`data:image/gif;base64,${files["spinner.gif"]!.toString("base64")}`, {}, /^the GIF is animated \(3 frames, looping\)/);
    canary.serve("/moving.webp", files["moving.webp"]!, "image/webp");
    await refused(`${canaryURL}/moving.webp`, { allowPrivateNetwork: true }, /^the WebP is animated \(2 frames\)/);
  });

  it("loads a still GIF that carries a loop extension and an APNG of one frame: each shows one picture", async () => {
    const loader = new ImageLoader({ imageRoot: root });
    assert.equal((await loader.load({ kind: "file", source: "still-with-loop.gif" })).mime, "image/gif");
    assert.equal((await loader.load({ kind: "file", source: "one-frame-apng.png" })).mime, "image/png");
    for (const still of ["bar-chart.png", "shapes.gif", "street-scene.webp"]) {
      assert.ok((await new ImageLoader({ imageRoot: IMAGES }).load({ kind: "file", source: still })).dataUri.length > 0, still);
    }
  });
});

describe("image load deadline", () => {
  it("fails a read that does not finish within the deadline, naming the image and the option", async () => {

    const started = Date.now();
    await assert.rejects(withDeadline(new Promise<Buffer>(() => undefined), 60, "photos/cat.png"), (error: unknown) => {
      assert.ok(error instanceof ImageRefusedError);
      assert.match(error.message, /reading photos\/cat\.png took more than 60 ms \(downloadTimeoutMs, --download-timeout-ms\)/);
      return true;
    });
    assert.ok(Date.now() - started < 1000);
    assert.equal(await withDeadline(Promise.resolve("done"), 60, "x.png"), "done");
  });
});
