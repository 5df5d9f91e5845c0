/**
 * A resampling worker thread: takes chunks of the bootstraps posted by
 * resample-parallel.ts until none is left.
 */
import { parentPort } from "node:worker_threads";
import { claimChunks, type SharedResample } from "./resample-kernel";

parentPort?.on("message", (job: SharedResample) => {
  claimChunks(job);
});
