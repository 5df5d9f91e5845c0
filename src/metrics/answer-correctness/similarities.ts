/**
 * The semantic part of answer correctness for a whole run: the cosine
 * similarity of each row's answer and reference, from batched embeddings of
 * the distinct texts. Texts are embedded a group at a time and each vector is
 * dropped once the last row that needs it has its similarity, so a large run
 * holds a group's vectors, not every text's (100,000 rows of 1,536-dimension
 * vectors would otherwise hold about 1.5 GB until the last row is scored).
 */
import type { Embedder } from "../../judge/judge";
import type { UsageRecorder } from "../../judge/usage";
import { errorText } from "../../display/words";
import { cosineSimilarity } from "../math";
import type { EvalRow } from "../metric";
import { embeddingPair } from "./plan";

/**
 * Distinct texts embedded at a time: 32 requests of the default 256 texts.
 * Every group but the last is full, so a run without cached vectors sends
 * ⌈distinct texts / 256⌉ requests, as one batch for the whole run would.
 */
export const TEXTS_PER_GROUP = 8192;

/** The cosine similarity of two vectors, or why there is none (vectors of different lengths). */
export type Similarity = { cosine: number } | { problem: string };

/** A row's {@link Similarity}, or the failure of the request that was to embed its texts. */
export type RowSimilarity = Similarity | { batchError: unknown };

/** The cosine similarity of the reference's and the answer's vectors, or why there is none (vectors of different lengths). */
export function similarityOf(reference: readonly number[], response: readonly number[]): Similarity {
  try {
    return { cosine: cosineSimilarity(reference, response) };
  } catch (error) {
    return { problem: errorText(error) };
  }
}

/**
 * The similarity of every row, by row index. The distinct texts are sent in
 * row order (each row's answer, then its reference), {@link TEXTS_PER_GROUP}
 * at a time; a group whose request fails gives its rows `batchError` (the
 * caller then tries each row's two texts alone), and the next group goes on.
 * Never rejects.
 */
export async function rowSimilarities(rows: readonly EvalRow[], embedder: Embedder, usage: UsageRecorder, groupSize = TEXTS_PER_GROUP): Promise<Map<number, RowSimilarity>> {
  const pairs = rows.map(embeddingPair);
  // How many rows still need each text's vector.
  const uses = new Map<string, number>();
  for (const pair of pairs) for (const text of pair) uses.set(text, (uses.get(text) ?? 0) + 1);
  const vectors = new Map<string, number[]>();
  const failures = new Map<string, unknown>();
  const out = new Map<number, RowSimilarity>();
  const release = (text: string) => {
    const left = uses.get(text)! - 1;
    if (left > 0) uses.set(text, left);
    else {
      uses.delete(text);
      vectors.delete(text);
      failures.delete(text);
    }
  };
  // Texts are scanned one at a time, so a group may end between a row's answer and its reference.
  let scanRow = 0;
  let scanSide = 0;
  let nextRow = 0;
  while (nextRow < rows.length) {
    const group: string[] = [];
    const inGroup = new Set<string>();
    while (scanRow < rows.length && group.length < groupSize) {
      const text = pairs[scanRow]![scanSide]!;
      if (!vectors.has(text) && !inGroup.has(text)) {
        inGroup.add(text);
        group.push(text);
      }
      if (++scanSide === 2) [scanRow, scanSide] = [scanRow + 1, 0];
    }
    if (group.length > 0) {
      try {
        const got = await embedder.embed(group, usage);
        group.forEach((text, i) => vectors.set(text, got[i]!));
      } catch (error) {
        for (const text of group) failures.set(text, error);
      }
    }
    // Every row whose two texts were scanned has its vectors now, or the failure that stopped them.
    for (; nextRow < scanRow; nextRow++) {
      const [response, reference] = pairs[nextRow]!;
      const [a, b] = [vectors.get(reference), vectors.get(response)];
      out.set(rows[nextRow]!.index, a && b ? similarityOf(a, b) : { batchError: failures.get(reference) ?? failures.get(response) });
      release(response);
      release(reference);
    }
  }
  return out;
}
