/**
 * An ImageLoader shared between runs (`imageLoader`, as a notebook keeps one
 * so that remote images are downloaded once) must not send an old picture
 * of a local file that was drawn again on disk, nor keep refusing a file
 * that was missing and is there now: each use of a file looks at it again
 * (size, times, inode) and loads it again when it changed. Real files, real
 * runs against the fake server, the request bodies read back.
 */
import assert from "node:assert/strict";
import { copyFileSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import * as path from "node:path";
import { describe, it } from "node:test";
import { ImageLoader } from "../src/context/loader";
import { createJudge, scoreMultimodalRelevance } from "../src/index";
import { useFakeOpenAI } from "./support/fake-openai";
import { tempDir } from "./support/files";

const IMAGES = path.join(__dirname, "..", "data", "images");
const PNG = path.join(IMAGES, "bar-chart.png");
const JPEG = path.join(IMAGES, "temperature.jpg");

const { server, url } = useFakeOpenAI(() => ({ chat: () => ({ reason: "Context 1 shows it.", relevant: true }) }));

/** The data URIs of the image parts of every relevance request sent, in order. */
function imagesSent(): string[] {
  return server.chatRequests().flatMap((r) => {
    const user = (r.body.messages as { role: string; content: unknown }[]).find((m) => m.role === "user")!;
    return (user.content as { type: string; image_url?: { url: string } }[]).flatMap((p) => (p.type === "image_url" ? [p.image_url!.url] : []));
  });
}

const rows = [{ id: "q1", model: "m", user_input: "Which quarter was highest?", response: "Q3", retrieved_contexts: JSON.stringify(["chart.png"]) }];
const judge = () => createJudge({ judge: "openai", apiKey: "sk-mm-fresh-test", baseURL: url(), cache: false, retryBaseDelayMs: 1 });
const quiet = { progress: false as const, quiet: true };

describe("a shared image loader and files that change on disk", () => {
  it("sends the file as it is now, not as it was when an earlier run loaded it", async () => {
    const dir = tempDir();
    copyFileSync(PNG, path.join(dir, "chart.png"));
    const loader = new ImageLoader({ imageRoot: dir });
    await scoreMultimodalRelevance(rows, { judge: judge(), imageRoot: dir, imageLoader: loader, ...quiet });
    // Drawn again: the same name now holds other bytes (a JPEG here, so the type shows it too).
    copyFileSync(JPEG, path.join(dir, "chart.png"));
    await scoreMultimodalRelevance(rows, { judge: judge(), imageRoot: dir, imageLoader: loader, ...quiet });
    const sent = imagesSent();
    assert.equal(sent.length, 2);
    assert.equal(sent[0], `data:image/png;base64,${readFileSync(PNG).toString("base64")}`);
    assert.equal(sent[1], `data:image/jpeg;base64,${readFileSync(JPEG).toString("base64")}`);
  });

  it("loads a file that was missing in an earlier run once it is there", async () => {
    const dir = tempDir();
    const loader = new ImageLoader({ imageRoot: dir });
    const first = await scoreMultimodalRelevance(rows, { judge: judge(), imageRoot: dir, imageLoader: loader, ...quiet });
    assert.match(String(first["multimodal_relevance_error"].values[0]), /no such file/);
    copyFileSync(PNG, path.join(dir, "chart.png"));
    const second = await scoreMultimodalRelevance(rows, { judge: judge(), imageRoot: dir, imageLoader: loader, ...quiet });
    assert.equal(second["multimodal_relevance"].values[0], 1, String(second["multimodal_relevance_error"].values[0]));
    assert.equal(imagesSent().length, 1);
  });

  it("follows a symlink that is pointed at another file, and still reads an unchanged file once", async () => {
    const dir = tempDir();
    copyFileSync(PNG, path.join(dir, "a.png"));
    copyFileSync(JPEG, path.join(dir, "b.jpg"));
    symlinkSync("a.png", path.join(dir, "chart.png"));
    const loader = new ImageLoader({ imageRoot: dir });
    const first = await loader.load({ kind: "file", source: "chart.png" });
    assert.equal(await loader.load({ kind: "file", source: "chart.png" }), first, "an unchanged file is given again, not read again");
    rmSync(path.join(dir, "chart.png"));
    symlinkSync("b.jpg", path.join(dir, "chart.png"));
    assert.equal((await loader.load({ kind: "file", source: "chart.png" })).mime, "image/jpeg");
  });
});
