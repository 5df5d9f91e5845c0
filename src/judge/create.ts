/** `createJudge`: the one way to get a judge. */
import { resolveJudgeConfig, type EnvironmentVariables, type JudgeOptions } from "./config";
import type { Judge } from "./judge";
import { LabelsJudge } from "./labels-judge";
import { OfflineJudge } from "./offline-judge";
import { OpenAIJudge } from "./openai-judge";

let noticeShown = false;

/**
 * Creates a judge. Each setting comes from the options, else the
 * environment (`EVALFRAME_MODEL`, `EVALFRAME_BASE_URL`, `EVALFRAME_API_KEY`,
 * … then `OPENAI_BASE_URL` and `OPENAI_API_KEY`: see `JUDGE_ENV_VARS`), else
 * its default. With no key or base URL anywhere it returns the offline judge
 * and prints a one-line notice (once per process; `quiet: true` silences it).
 *
 * @param env where environment settings are read (default `process.env`).
 *
 * @example
 * const judge = createJudge();                                   // from the environment
 * const local = createJudge({ baseURL: "http://localhost:11434/v1", model: "llama3.1" }); // Ollama
 * const split = createJudge({ baseURL: "http://gpu1:8000/v1", embeddingBaseURL: "http://gpu2:8001/v1" }); // vLLM: chat and embeddings apart
 * const offline = createJudge({ judge: "offline" });             // no network, approximate
 * const human = createJudge({ judge: "labels", labels: "data/qa-models.labels.jsonl" }); // replays hand labels
 *
 * @throws {RangeError} for an option out of range; `LabelFileError` for label files that cannot be used.
 */
export function createJudge(options: JudgeOptions = {}, env: EnvironmentVariables = process.env): Judge {
  const config = resolveJudgeConfig(options, env);
  if (config.offlineNotice !== undefined && !noticeShown) {
    noticeShown = true;
    console.warn(config.offlineNotice);
  }
  if (config.kind === "labels") return new LabelsJudge(config.labels!, { prices: config.prices });
  return config.kind === "offline" ? new OfflineJudge({ prices: config.prices, ...(config.threads === undefined ? {} : { threads: config.threads }) }) : new OpenAIJudge(config);
}
