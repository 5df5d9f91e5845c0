/** `createJudge`: the one way to get a judge. */
import { resolveJudgeConfig, type JudgeOptions } from "./config";
import type { Judge } from "./judge";
import { LabelsJudge } from "./labels-judge";
import { OfflineJudge } from "./offline-judge";
import { OpenAIJudge } from "./openai-judge";

let noticeShown = false;

/**
 * Creates a judge. With no options it reads `OPENAI_API_KEY` and
 * `OPENAI_BASE_URL`; when neither is set it returns the offline judge and
 * prints a one-line notice (once per process; `quiet: true` silences it).
 *
 * @example
 * const judge = createJudge();                                   // from the environment
 * const local = createJudge({ baseURL: "http://localhost:11434/v1", model: "llama3.1" }); // Ollama
 * const offline = createJudge({ judge: "offline" });             // no network, approximate
 * const human = createJudge({ judge: "labels", labels: "data/qa-models.labels.jsonl" }); // replays hand labels
 *
 * @throws {RangeError} for an option out of range; `LabelFileError` for label files that cannot be used.
 */
export function createJudge(options: JudgeOptions = {}): Judge {
  const config = resolveJudgeConfig(options);
  if (config.offlineNotice !== undefined && !noticeShown) {
    noticeShown = true;
    console.warn(config.offlineNotice);
  }
  if (config.kind === "labels") return new LabelsJudge(config.labels!, { prices: config.prices });
  return config.kind === "offline" ? new OfflineJudge({ prices: config.prices, ...(config.threads === undefined ? {} : { threads: config.threads }) }) : new OpenAIJudge(config);
}
