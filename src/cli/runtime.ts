/**
 * The heavy part of the command line (danfojs, the judge, the charts, the
 * report), loaded only once the arguments are known to be good: a usage
 * error is reported at once, without loading any of it.
 */
export { compareModels } from "../analysis/compare";
export { summarize } from "../analysis/summarize";
export { headline } from "../analysis/headline";
export { meanWithCI, pairedDifferences, relevanceRate, thresholdSweep, winTieLoss } from "../charts/comparison";
export { factualVsSemantic, questionHeatmap, verdictBars } from "../charts/detail";
export { scoreBox, scoreHistogram } from "../charts/distribution";
export { saveChart } from "../charts/render";
export { toCSV } from "../dataset/export";
export { loadDataset } from "../frame/load";
export { score, scoreRun } from "../frame/score";
export { estimate, formatEstimate } from "../frame/estimate";
export { statements } from "../frame/statements";
export { createJudge } from "../judge/create";
export { terminalProgress } from "../judge/progress";
export { formatUsage } from "../judge/usage";
export { buildReport, rowsWithStatements } from "../report/html";
export { formatTable, frameRecords } from "./table";
export { requireColumns } from "../dataset/validate";
export { scoreFileInChunks, surveyInput } from "./score-stream";
export { conclusion } from "./conclusion";
