import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pruneOlderThan } from '../../../src/artifacts/prune.js';

describe('pruneOlderThan', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'autofix-prune-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('removes entries not modified for the given age, keeps the rest, and runs at most once per period', async () => {
    const day = 24 * 3600 * 1000;
    const now = Date.now();
    mkdirSync(join(dir, 'run-old'));
    writeFileSync(join(dir, 'run-old', 'query-1-build.txt'), 'x');
    utimesSync(join(dir, 'run-old'), (now - 20 * day) / 1000, (now - 20 * day) / 1000);
    writeFileSync(join(dir, 'old.json'), '{}');
    utimesSync(join(dir, 'old.json'), (now - 20 * day) / 1000, (now - 20 * day) / 1000);
    mkdirSync(join(dir, 'run-new'));

    expect(await pruneOlderThan(dir, 14 * day, { now })).toBe(2);
    expect(readdirSync(dir)).toEqual(['run-new']);
    // Within the period nothing is read again.
    utimesSync(join(dir, 'run-new'), (now - 20 * day) / 1000, (now - 20 * day) / 1000);
    expect(await pruneOlderThan(dir, 14 * day, { now: now + 60_000 })).toBe(0);
    expect(await pruneOlderThan(dir, 14 * day, { now: now + 2 * 3600 * 1000 })).toBe(1);
  });

  it('does nothing for a folder that does not exist', async () => {
    await expect(pruneOlderThan(join(dir, 'missing'), 1)).resolves.toBe(0);
  });
});
