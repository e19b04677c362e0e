let tail: Promise<unknown> = Promise.resolve();

/**
 * Runs `fn` when no other `exclusive` call is running. The timed tool runs and the corpus
 * builder's git calls go through here: with --jobs > 1 a synchronous spawn of one edit would
 * otherwise block the event loop in the middle of another edit's timed (async) run.
 */
export function exclusive<T>(fn: () => Promise<T>): Promise<T> {
  const result = tail.then(fn);
  tail = result.catch(() => undefined);
  return result;
}
