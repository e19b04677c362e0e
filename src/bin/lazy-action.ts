/**
 * A command's action, loaded when the command runs: declaring a command (its options, its help)
 * must not load what running it needs (Probot, BullMQ, OpenAI, …), so that `autofix --help` and the
 * light commands start fast.
 */
export function lazyAction<Args extends unknown[]>(
  load: () => Promise<(...args: Args) => Promise<void> | void>,
): (...args: Args) => Promise<void> {
  return async (...args: Args) => {
    const action = await load();
    await action(...args);
  };
}
