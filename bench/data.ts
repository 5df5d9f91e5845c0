/**
 * Seeded synthetic datasets for the benchmarks: N questions × M models of
 * answer-correctness rows whose statements are sentences (as the scripted
 * judge reads them), and large scored tables for the analysis benchmarks.
 */
import { mulberry32, type Rng } from "../src/stats/random";

/** One answer-correctness input row. */
export interface QaRow {
  id: string;
  model: string;
  user_input: string;
  response: string;
  reference: string;
}

const SUBJECTS = [
  "The Danube",
  "Mount Kenya",
  "The Treaty of Westphalia",
  "Photosynthesis",
  "The Hubble telescope",
  "Marie Curie",
  "The Krebs cycle",
  "Lake Baikal",
  "The printing press",
  "Hangul",
  "The Suez Canal",
  "Penicillin",
  "The Andes",
  "Ada Lovelace",
  "The Rosetta Stone",
  "Plate tectonics",
];
const VERBS = ["was described in", "changed sharply after", "was first measured in", "is usually dated to", "reached its peak in", "was renamed in"];
const OBJECTS = ["official records", "a survey of the region", "the national archive", "a 3-volume study", "field notes", "the census"];
const FACTS = ["it covers %n square kilometres", "it involves %n distinct steps", "%n people took part", "the figure was %n per cent", "%n copies survive"];

function pick<T>(rng: Rng, list: readonly T[]): T {
  return list[Math.floor(rng() * list.length)]!;
}

function sentence(rng: Rng, subject: string): string {
  const year = 1500 + Math.floor(rng() * 520);
  const fact = pick(rng, FACTS).replace("%n", String(2 + Math.floor(rng() * 9000)));
  return `${subject} ${pick(rng, VERBS)} ${pick(rng, OBJECTS)} in ${year}, and ${fact}.`;
}

/** Share of reference sentences each model's answers keep (model k uses entry k mod 5). */
const QUALITY = [0.9, 0.75, 0.6, 0.5, 0.35];

/**
 * `questions` × `models` rows, question-major (every model's answer to q0,
 * then to q1, …). References have 2–5 sentences; an answer keeps each of
 * them with its model's quality and adds 0–2 wrong sentences; about 2% of
 * answers are empty and about 3% copy the reference word for word.
 */
export function qaRows(questions: number, models: number, seed = 7): QaRow[] {
  const rng = mulberry32(seed);
  const rows: QaRow[] = [];
  for (let q = 0; q < questions; q++) {
    const subject = `${pick(rng, SUBJECTS)} (topic ${q})`;
    const refCount = 2 + Math.floor(rng() * 4);
    const reference = Array.from({ length: refCount }, () => sentence(rng, subject));
    const question = `What do the sources say about ${subject}, and when?`;
    for (let m = 0; m < models; m++) {
      const quality = QUALITY[m % QUALITY.length]!;
      const roll = rng();
      let answer: string[];
      if (roll < 0.02) answer = [];
      else if (roll < 0.05) answer = [...reference];
      else {
        answer = reference.filter(() => rng() < quality);
        const wrong = rng() < 1 - quality ? 1 + Math.floor(rng() * 2) : 0;
        for (let w = 0; w < wrong; w++) answer.splice(Math.floor(rng() * (answer.length + 1)), 0, sentence(rng, subject));
      }
      rows.push({ id: `q${q}`, model: `model-${m + 1}`, user_input: question, response: answer.join(" "), reference: reference.join(" ") });
    }
  }
  return rows;
}

/** Columns of a large scored table for the analysis benchmarks. */
export interface ScoredColumns {
  id: string[];
  model: string[];
  answer_correctness: number[];
  answer_correctness_error: string[];
}

/**
 * `rows` scored rows: `models` models answering rows / models questions
 * (question-major), scores in [0, 1] that differ by model, about 1% failed
 * (NaN with an error reason).
 */
export function scoredColumns(rows: number, models = 5, seed = 11): ScoredColumns {
  const rng = mulberry32(seed);
  const out: ScoredColumns = { id: [], model: [], answer_correctness: [], answer_correctness_error: [] };
  for (let i = 0; i < rows; i++) {
    const m = i % models;
    out.id.push(`q${Math.floor(i / models)}`);
    out.model.push(`model-${m + 1}`);
    const failed = rng() < 0.01;
    out.answer_correctness.push(failed ? Number.NaN : Math.min(1, Math.max(0, QUALITY[m % QUALITY.length]! - 0.2 + 0.4 * rng())));
    out.answer_correctness_error.push(failed ? "classification of the statements failed: HTTP 500" : "");
  }
  return out;
}
