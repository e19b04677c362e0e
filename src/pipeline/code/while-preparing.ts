import type { CodeSession } from './code-session.js';

/**
 * Runs the model's first round while setup and the baseline run: whichever fails first stops the
 * other, and setup's failure is the root cause even when it cut the model's answers short.
 */
export async function whilePreparing<T>(
  session: CodeSession,
  /** `prepared` settles once setup and the baseline are done (what running tests waits for). */
  work: (signal: AbortSignal, prepared: Promise<unknown>) => Promise<T>,
): Promise<T> {
  const { signal } = session.ports;
  const stopWork = new AbortController();
  const stopChecks = new AbortController();
  const workSignal = signal ? AbortSignal.any([signal, stopWork.signal]) : stopWork.signal;
  const checksSignal = signal ? AbortSignal.any([signal, stopChecks.signal]) : stopChecks.signal;
  let prepared: (value: unknown) => void = () => undefined;
  const ready = new Promise((done) => (prepared = done));
  const [answers, checks] = await Promise.allSettled([
    work(workSignal, ready).catch((err: unknown) => {
      stopChecks.abort();
      throw err;
    }),
    session
      .prepare(checksSignal)
      .catch((err: unknown) => {
        stopWork.abort();
        throw err;
      })
      .finally(() => prepared(undefined)),
  ]);
  if (checks.status === 'rejected') throw checks.reason;
  if (answers.status === 'rejected') throw answers.reason;
  session.setupWarnings = checks.value;
  return answers.value;
}
