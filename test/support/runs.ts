/**
 * Two scored runs of the same questions, built by hand so that every change
 * between them is known: which answers got better or worse and by how much,
 * which failed in one run only, which were added or dropped. Scores are
 * multiples of 1/8, so every mean is exact.
 */

/** A scored row as `evalframe score` writes it (the columns the analysis reads). */
export type RunRow = {
  id: string;
  model: string;
  user_input: string;
  response: string;
  answer_correctness: number;
  answer_correctness_error: string;
};

function row(id: string, model: string, score: number | string, response = `answer of ${model} to ${id}`): RunRow {
  const failed = typeof score === "string";
  return {
    id,
    model,
    user_input: `question ${id}`,
    response,
    answer_correctness: failed ? Number.NaN : score,
    answer_correctness_error: failed ? score : "",
  };
}

/**
 * Before. Model A: q1 .5, q2 .625, q3 .75, q4 .875, q5 failed ("judge timed out").
 * Model B: q1 .25, q2 .375, q3 .5, q4 .5.
 */
export const BEFORE: readonly RunRow[] = [
  row("q1", "A", 0.5),
  row("q1", "B", 0.25),
  row("q2", "A", 0.625),
  row("q2", "B", 0.375),
  row("q3", "A", 0.75),
  row("q3", "B", 0.5),
  row("q4", "A", 0.875),
  row("q4", "B", 0.5),
  row("q5", "A", "judge timed out"),
];

/**
 * After, in another row order (pairing must go by id and model, not by
 * position). Model A: q1 .875 (+.375, new answer text), q2 same, q3 .5
 * (−.25), q4 same, q5 .75 (no longer failing), q6 .375 (added).
 * Model B: q1 same, q2 failed ("rate limited"; newly failed), q3 dropped,
 * q4 .625 (+.125).
 */
export const AFTER: readonly RunRow[] = [
  row("q6", "A", 0.375),
  row("q4", "B", 0.625),
  row("q4", "A", 0.875),
  row("q3", "A", 0.5),
  row("q2", "B", "rate limited"),
  row("q2", "A", 0.625),
  row("q1", "B", 0.25),
  row("q1", "A", 0.875, "a better answer of A to q1"),
  row("q5", "A", 0.75),
];

/**
 * Two runs of `n` questions for models A and B where A gains `gain` on every
 * question and B loses `loss` on every question.
 */
export function shiftedRuns(n: number, gain: number, loss: number): { before: RunRow[]; after: RunRow[] } {
  const before: RunRow[] = [];
  const after: RunRow[] = [];
  for (let i = 1; i <= n; i++) {
    const id = `q${String(i).padStart(2, "0")}`;
    const base = 0.25 + (i % 5) / 10;
    before.push(row(id, "A", base), row(id, "B", base + 0.125));
    after.push(row(id, "A", base + gain), row(id, "B", base + 0.125 - loss));
  }
  return { before, after };
}

/**
 * Two runs of `n` questions (a multiple of 20) for model M whose changes are
 * skewed: 85% of the answers gain 0.05 (0.5 → 0.55) and 15% lose 0.45
 * (0.5 → 0.05). The typical answer got better, the mean got worse (−0.025).
 */
export function skewedRuns(n = 400): { before: RunRow[]; after: RunRow[] } {
  const before: RunRow[] = [];
  const after: RunRow[] = [];
  for (let i = 0; i < n; i++) {
    const id = `q${String(i).padStart(3, "0")}`;
    before.push(row(id, "M", 0.5));
    after.push(row(id, "M", i % 20 < 17 ? 0.55 : 0.05));
  }
  return { before, after };
}

/**
 * One model "M" on 30 questions whose mean drops while the rank test sees no
 * difference: 10 answers lose `loss`, 10 gain 0.05, 10 stay (W+ 55 of 210
 * over 20 changed answers, p ≈ 0.06). At a loss of 0.3: mean −0.083, its 95%
 * interval about −0.14 to −0.03; at 0.2: mean −0.05, about −0.09 to −0.01 at
 * 95%, while its 99.5% interval holds 0. `steady` more models whose answers
 * do not change ("S1", "S2", …).
 */
export function fewBigLossesRuns(loss = 0.3, steady = 0): { before: RunRow[]; after: RunRow[] } {
  const before: RunRow[] = [];
  const after: RunRow[] = [];
  for (let i = 0; i < 30; i++) {
    const id = `q${String(i).padStart(2, "0")}`;
    before.push(row(id, "M", 0.5));
    after.push(row(id, "M", i % 3 === 0 ? 0.5 - loss : i % 3 === 1 ? 0.55 : 0.5));
    for (let s = 1; s <= steady; s++) {
      before.push(row(id, `S${s}`, 0.3 + 0.01 * s));
      after.push(row(id, `S${s}`, 0.3 + 0.01 * s));
    }
  }
  return { before, after };
}
