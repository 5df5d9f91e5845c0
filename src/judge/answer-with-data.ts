/**
 * What the judges that answer with data instead of a model (the offline
 * judge, the labels judge) share: usage goes to the judge's own recorder and
 * the run's, and their answer is checked against the request like any reply.
 */
import { checkReply } from "./structured";
import { JudgeError, type JudgeTask, type StructuredRequest } from "./types";
import type { UsageRecorder } from "./usage";

/** The judge's own recorder, and the run's when it is another one. */
export function recordersOf(own: UsageRecorder, run: UsageRecorder | undefined): UsageRecorder[] {
  return run && run !== own ? [own, run] : [own];
}

/**
 * Counts one chat call, gets the answer, checks it against the request's
 * schema and check, and counts a failure when any of that throws.
 * `who` names the judge in the error of an answer that does not fit.
 */
export async function completeWithData<T>(
  request: StructuredRequest<T>,
  recorders: readonly UsageRecorder[],
  answer: () => unknown,
  who: string,
): Promise<T> {
  for (const r of recorders) r.chatCall(false);
  try {
    const read = checkReply(request, await answer());
    if (!read.ok) throw new JudgeError(`${who}: ${read.problem}`);
    return read.value;
  } catch (error) {
    for (const r of recorders) r.failure();
    throw error;
  }
}

/**
 * The answer of a judge that answers tasks from data: its own answer to the
 * request's task, or, for a metric's own (custom) task with a `compose`,
 * the reply composed from the requests it knows, each checked as any reply.
 */
export async function answerOrCompose<T>(request: StructuredRequest<T>, answerTask: (task: JudgeTask) => unknown, who: string): Promise<unknown> {
  if (request.task.kind !== "custom" || !request.compose) return answerTask(request.task);
  return request.compose(async <R>(sub: StructuredRequest<R>): Promise<R> => {
    const read = checkReply(sub, await answerOrCompose(sub, answerTask, who));
    if (!read.ok) throw new JudgeError(`${who}: ${read.problem}`);
    return read.value;
  });
}
