/** The shared sample-repository builder (test/helpers/repo-builder.ts) does what tests rely on. */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  cloneRepo,
  createRepo,
  executable,
  TEST_IDENTITY,
  type TestRepo,
} from '../helpers/repo-builder.js';

const made: TestRepo[] = [];
const repo = (...args: Parameters<typeof createRepo>): TestRepo => {
  const r = createRepo(...args);
  made.push(r);
  return r;
};
afterEach(() => {
  for (const r of made.splice(0)) r.cleanup();
});

describe('createRepo', () => {
  it('commits the files on the given branch with the fixed identity and dates: same files, same ids', () => {
    const files = { 'src/a.js': 'a\n', 'bin/run.sh': executable('#!/bin/sh\n') };
    const one = repo({ files, branch: 'trunk' });
    const two = repo({ files, branch: 'trunk' });
    expect(one.head()).toMatch(/^[0-9a-f]{40}$/);
    expect(two.head()).toBe(one.head());
    expect(one.git('rev-parse', '--abbrev-ref', 'HEAD')).toBe('trunk');
    expect(one.git('log', '-1', '--format=%an <%ae>|%cn <%ce>|%aI')).toBe(
      `${TEST_IDENTITY.name} <${TEST_IDENTITY.email}>|${TEST_IDENTITY.name} <${TEST_IDENTITY.email}>|2024-01-01T00:00:00+00:00`,
    );
    expect(one.git('ls-files', '-s', 'bin/run.sh').split(' ')[0]).toBe('100755');
    expect(statSync(join(one.dir, 'bin/run.sh')).mode & 0o777).toBe(0o755);
    expect(one.git('status', '--porcelain')).toBe('');

    // Further commits: one minute apart, still deterministic, still distinct.
    const a = one.commit('second', { 'src/a.js': 'b\n' });
    const b = two.commit('second', { 'src/a.js': 'b\n' });
    expect(a).toBe(b);
    expect(one.git('log', '-1', '--format=%s|%aI', a)).toBe('second|2024-01-01T00:01:00+00:00');
    expect(one.git('rev-list', '--count', 'HEAD')).toBe('2');
  });

  it('leaves files untracked and the repository without a commit when asked to', () => {
    const r = repo({ files: { 'a.txt': 'a\n' }, commit: false, initArgs: ['--template='] });
    expect(readFileSync(join(r.dir, 'a.txt'), 'utf8')).toBe('a\n');
    expect(r.git('status', '--porcelain')).toBe('?? a.txt');
    expect(existsSync(join(r.dir, '.git', 'hooks'))).toBe(false);
  });

  it('makes a bare remote (as origin), and clones of it push back', () => {
    const seed = repo({ name: 'seed', files: { 'README.md': '# r\n' } });
    const remote = seed.bare({ origin: true });
    expect(remote.dir).toBe(join(seed.root, 'remote.git'));
    expect(remote.url).toBe(`file://${remote.dir}`);
    expect(remote.git('rev-parse', 'refs/heads/main')).toBe(seed.head());
    expect(seed.git('rev-parse', 'origin/main')).toBe(seed.head());

    const clone = cloneRepo(remote.dir, join(seed.root, 'clone'), { branch: 'main' });
    const sha = clone.commit('more', { 'b.txt': 'b\n' });
    clone.git('push', '--quiet', 'origin', 'main');
    expect(remote.git('rev-parse', 'refs/heads/main')).toBe(sha);

    seed.cleanup();
    expect(existsSync(seed.root)).toBe(false);
  });

  it('works in a folder the test owns and then removes only the repository', () => {
    const outer = repo({ commit: false });
    const inner = createRepo({ root: outer.root, name: 'inner', files: { 'x.txt': 'x\n' } });
    expect(inner.dir).toBe(join(outer.root, 'inner'));
    inner.cleanup();
    expect(existsSync(inner.dir)).toBe(false);
    expect(existsSync(outer.root)).toBe(true);
  });
});
