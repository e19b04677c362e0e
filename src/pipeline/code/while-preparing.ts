import type { CodeSession } from './code-session.js';

/**
 * Runs the model's first round while setup and the baseline run: whichever fails first stops the
 * other, and setup's failure is the root cause even when it cut the model's answers short.
 */
export async function whilePreparing<T>(
  session: CodeSession,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const { signal } = session.ports;
  const stopWork = new AbortController();
  const stopChecks = new AbortController();
  const workSignal = signal ? AbortSignal.any([signal, stopWork.signal]) : stopWork.signal;
  const checksSignal = signal ? AbortSignal.any([signal, stopChecks.signal]) : stopChecks.signal;
  const [answers, checks] = await Promise.allSettled([
    work(workSignal).catch((err: unknown) => {
      stopChecks.abort();
      throw err;
    }),
    session.prepare(checksSignal).catch((err: unknown) => {
      stopWork.abort();
      throw err;
    }),
  ]);
  if (checks.status === 'rejected') throw checks.reason;
  if (answers.status === 'rejected') throw answers.reason;
  session.setupWarnings = checks.value;
  return answers.value;
}
