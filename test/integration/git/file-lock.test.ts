import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { withFileLock } from '../../../src/git/file-lock.js';
import { removeDir, tempDir } from './helpers.js';

describe('withFileLock', () => {
  let root: string;
  beforeEach(async () => {
    root = await tempDir('autofix-lock-');
  });
  afterEach(async () => {
    await removeDir(root);
  });

  it('lets one holder in at a time and removes the lock afterwards', async () => {
    const lock = join(root, 'repo.lock');
    let inside = 0;
    let maxInside = 0;
    await Promise.all(
      Array.from({ length: 5 }, () =>
        withFileLock(lock, async () => {
          inside++;
          maxInside = Math.max(maxInside, inside);
          // Held a while, so that the others come while it is held: the thing under test.
          await new Promise((r) => setTimeout(r, 30));
          inside--;
        }),
      ),
    );
    expect(maxInside).toBe(1);
    expect(existsSync(lock)).toBe(false);
  });

  it('waits for a lock held by another live process and breaks it once that process is gone', async () => {
    const lock = join(root, 'repo.lock');
    const other = spawn('sleep', ['30']);
    await mkdir(lock);
    await writeFile(
      join(lock, 'owner.json'),
      JSON.stringify({ pid: other.pid, host: hostname(), token: 'other' }),
    );
    // Still held by the live process: a waiter gives up rather than take it.
    await expect(
      withFileLock(lock, () => Promise.resolve(1), { timeoutMs: 200, pollMs: 20 }),
    ).rejects.toMatchObject({ code: 'TIMEOUT' });
    let acquired = 0;
    const waiting = withFileLock(lock, () => Promise.resolve((acquired = Date.now())), {
      pollMs: 20,
    });
    const killedAt = Date.now();
    other.kill('SIGKILL');
    await waiting;
    expect(acquired).toBeGreaterThanOrEqual(killedAt);
  });

  it('breaks a lock nobody touched for staleMs and times out on a fresh one', async () => {
    const lock = join(root, 'repo.lock');
    await mkdir(lock); // no owner file: judged by age only
    await expect(
      withFileLock(lock, () => Promise.resolve(1), { timeoutMs: 200, staleMs: 60_000 }),
    ).rejects.toMatchObject({ code: 'TIMEOUT' });
    // That wait made the lock older than the next call's staleMs.
    expect(Date.now() - statSync(lock).mtimeMs).toBeGreaterThan(100);
    await expect(withFileLock(lock, () => Promise.resolve(2), { staleMs: 100 })).resolves.toBe(2);
  });
});
