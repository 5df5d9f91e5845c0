/**
 * Stopping a scoring run from the notebook's interrupt (the ■ button, or
 * I, I): tslab stops waiting for the cell, but the run's promise would go
 * on, sending every request left (and paying for it) in the background and
 * drawing its progress and usage line in whatever cell runs next. So while
 * a run is scored in a tslab kernel it listens for the interrupt (tslab
 * turns it into SIGINT) and then sends nothing more: requests not yet sent
 * fail at once, those already sent finish (and go to the cache), the
 * progress line stops, and the run's promise rejects.
 */
import type { Embedder, Judge } from "../judge/judge";
import type { ProgressCallback } from "../judge/progress";
import { tslab } from "../display/tslab";

/** Why a stopped run's requests and its promise fail. */
export const INTERRUPTED = "interrupted: the notebook's interrupt stopped this scoring run";

/** A scoring run that the notebook's interrupt can stop. */
export interface RunInterrupt {
  /** True once the interrupt came. */
  readonly interrupted: boolean;
  /**
   * `judge` with its requests held back once the interrupt came, and queued
   * no deeper than it sends at once: the run's judge, and any judge a metric
   * brings itself (its own judge, a separate embeddings judge).
   */
  gate<J extends Embedder>(judge: J): J;
  /** `progress` that stops drawing once the interrupt came. */
  progress(progress: ProgressCallback | undefined): ProgressCallback | undefined;
  /** Stops listening (call it when the run ends, however it ends). */
  dispose(): void;
}

/** The runs listening now: one SIGINT listener serves them all (ten runs at once must not add ten, which Node warns of). */
const listening = new Set<() => boolean>();

/** Stops every run listening, and says so once (in the words for a paid judge when one of them asks one). */
function interruptAll(): void {
  if (listening.size === 0) return;
  let paid = false;
  for (const stop of [...listening]) paid = stop() || paid;
  console.error(
    paid
      ? "evalframe: scoring stopped (interrupted): no more requests are sent; the replies already on their way are kept in the judge's cache, so running the cell again pays only for the rest"
      : "evalframe: scoring stopped (interrupted); run the cell again to score the table",
  );
}

function listen(stop: () => boolean): () => void {
  if (listening.size === 0) process.on("SIGINT", interruptAll);
  listening.add(stop);
  return () => {
    listening.delete(stop);
    if (listening.size === 0) process.removeListener("SIGINT", interruptAll);
  };
}

/** Requests sent at once by a judge that does not say (the offline and labels judges answer at once anyway). */
const UNLIMITED = Number.POSITIVE_INFINITY;

/**
 * Listens for the interrupt while a run is scored in a notebook; undefined
 * outside one (a script or the command line, which Ctrl-C ends as usual:
 * no listener is added there, since one would keep the process alive).
 */
export function notebookInterrupt(): RunInterrupt | undefined {
  if (tslab() === undefined) return undefined;
  let interrupted = false;
  let paid = false;
  const waiting = new Set<() => void>();
  /** Stops this run; true when it asks a paid judge. */
  const onInterrupt = (): boolean => {
    interrupted = true;
    for (const wake of [...waiting]) wake();
    waiting.clear();
    return paid;
  };
  const unlisten = listen(onInterrupt);

  const stopped = (): Error => new Error(INTERRUPTED);

  return {
    get interrupted() {
      return interrupted;
    },
    gate<J extends Embedder>(judge: J): J {
      const full = judge as Partial<Judge>;
      paid ||= full.kind === "openai";
      // Twice what the judge sends at once: its scheduler always has the next requests ready, and no
      // more are handed to it than the interrupt can still hold back.
      const limit = full.concurrency !== undefined && full.concurrency > 0 ? full.concurrency * 2 : UNLIMITED;
      let active = 0;
      const queue: (() => void)[] = [];
      const acquire = async (): Promise<void> => {
        while (!interrupted && active >= limit) {
          await new Promise<void>((resolve) => {
            const wake = (): void => {
              waiting.delete(wake);
              resolve();
            };
            waiting.add(wake);
            queue.push(wake);
          });
        }
        if (interrupted) throw stopped();
        active++;
      };
      const release = (): void => {
        active--;
        queue.shift()?.();
      };
      const held = <T>(call: () => Promise<T>): Promise<T> =>
        acquire().then(() => {
          let pending: Promise<T>;
          try {
            pending = call();
          } catch (error) {
            release();
            throw error;
          }
          return pending.finally(release);
        });
      return new Proxy(judge, {
        get(target, key) {
          if (key === "complete" && typeof full.complete === "function") {
            const complete = full.complete.bind(target);
            return (request: Parameters<Judge["complete"]>[0], usage?: Parameters<Judge["complete"]>[1]) => held(() => complete(request, usage));
          }
          if (key === "embed") return (texts: Parameters<Judge["embed"]>[0], usage?: Parameters<Judge["embed"]>[1]) => held(() => target.embed(texts, usage));
          const value: unknown = Reflect.get(target, key, target);
          return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
        },
      });
    },
    progress(progress: ProgressCallback | undefined): ProgressCallback | undefined {
      if (progress === undefined) return undefined;
      return (event) => {
        if (!interrupted) progress(event);
      };
    },
    dispose(): void {
      unlisten();
    },
  };
}
