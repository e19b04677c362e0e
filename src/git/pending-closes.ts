/**
 * Workspaces this process is closing in the background (`closeWorkspaceLater` in workspace.ts):
 * a stage answers as soon as its work is done, and its worktree is parked or removed after.
 * What needs a close to have happened waits for it here, never longer than it is told:
 * - a job opening on the same mirror that finds the pool empty waits until the worktree was
 *   parked (or not), so it can claim it instead of checking out a new one;
 * - a job reusing the same folder (a retry) waits until the folder is gone;
 * - shutdown waits for every close, so a stopped process leaves no half-removed job behind.
 * A process killed mid-close leaves a job folder of a dead owner: the next open sweeps it
 * (abandoned-jobs.ts), and a slot whose parking never finished is freed (worktree-pool.ts).
 */
export interface PendingClose {
  mirrorDir: string;
  jobDir: string;
  /** Settles once the worktree is parked, or known not to be. */
  released: Promise<void>;
  /** Settles once the close ended (it never rejects: failures are logged by the closer). */
  done: Promise<void>;
}

const pending = new Set<PendingClose>();

export function trackClose(close: PendingClose): void {
  pending.add(close);
  void close.done.finally(() => pending.delete(close));
}

/** Whether every one of `waits` settled within `timeoutMs`. */
async function within(waits: Promise<void>[], timeoutMs: number): Promise<boolean> {
  if (waits.length === 0) return true;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
    timer.unref();
  });
  try {
    return await Promise.race([Promise.all(waits).then(() => true as const), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Whether a close on `mirrorDir` was under way (true once it parked its worktree, or knew it
 * would not, or `timeoutMs` passed); false at once when none was.
 */
export async function parkingOn(mirrorDir: string, timeoutMs: number): Promise<boolean> {
  const waits = [...pending].filter((c) => c.mirrorDir === mirrorDir).map((c) => c.released);
  if (waits.length === 0) return false;
  await within(waits, timeoutMs);
  return true;
}

/** Until the close of `jobDir` under way (if any) ended, at most `timeoutMs`. */
export function jobClosed(jobDir: string, timeoutMs: number): Promise<boolean> {
  const waits = [...pending].filter((c) => c.jobDir === jobDir).map((c) => c.done);
  return within(waits, timeoutMs);
}

/** Every close of this process ended (true), or `timeoutMs` passed first (false). */
export function allClosed(timeoutMs: number): Promise<boolean> {
  return within(
    [...pending].map((c) => c.done),
    timeoutMs,
  );
}

/** How many closes are under way (for logs and tests). */
export function closesUnderWay(): number {
  return pending.size;
}
