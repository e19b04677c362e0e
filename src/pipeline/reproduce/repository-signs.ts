/**
 * What the reproduce stage reads of the repository before it asks for a test: the signs of its
 * test runners and two existing tests as examples of its style. Through the one reader: a link,
 * a FIFO, a file outside the worktree or over the cap is no sign and no example.
 */
import { worktreeGit, type WorktreeRef } from '../../git/worktree-git.js';
import { openRepoFiles, type RepoFiles } from '../../repo-files/open-repo-files.js';

export interface RepositorySigns {
  files: string[];
  dependencies: string[];
  commands: string[];
}

/** A test file of the languages the reproducer writes for. */
const TEST_FILE =
  /(^|\/)(tests?|spec|__tests__)\/.+\.[cm]?[jt]sx?$|[._-](test|spec)\.[cm]?[jt]sx?$|(^|\/)test_[^/]+\.py$/;
const EXAMPLE_LINES = 60;
/** What is read of one repository file here: more than any test example or package.json needs. */
const MAX_READ = 256 * 1024;

/**
 * What the repository shows of its test runners: package.json's dependencies and scripts (a
 * regular file of the repository's own: a link to anything else is no sign), its files.
 */
export async function repositorySigns(
  ws: WorktreeRef,
  commands: string[],
): Promise<RepositorySigns> {
  // The job's git directory, never the `.git` link repository code could have rewritten.
  const files = (await worktreeGit(ws, ['ls-files', '-z'])).stdout.split('\0').filter(Boolean);
  let dependencies: string[] = [];
  try {
    const read = await openRepoFiles(ws.worktree).readText('package.json', { maxBytes: MAX_READ });
    if (!read.ok) throw new Error(read.message);
    const pkg = JSON.parse(read.text) as Record<string, unknown>;
    const names = (v: unknown) => (v && typeof v === 'object' ? Object.keys(v) : []);
    dependencies = [...names(pkg.dependencies), ...names(pkg.devDependencies)];
    const scripts =
      pkg.scripts && typeof pkg.scripts === 'object' ? Object.values(pkg.scripts) : [];
    commands = [...commands, ...scripts.filter((s): s is string => typeof s === 'string')];
  } catch {
    // no package.json (or not a regular file of the repository's), or not JSON: no JavaScript
    // runner signs
  }
  return { files, dependencies, commands };
}

/**
 * Two existing test files, abridged, nearest the plan's files first: the repository's style. Only
 * regular files of the repository's own count: a link (to `/proc/self/environ`, say), a FIFO or
 * a file over the cap is passed over, and the next test file is taken instead.
 */
export async function testExamples(
  repo: RepoFiles,
  files: string[],
  near: string[],
): Promise<string> {
  const tests = files.filter((f) => TEST_FILE.test(f));
  const stem = (p: string) =>
    p
      .split('/')
      .pop()!
      .replace(/\.[^.]+$/, '');
  const score = (t: string) => (near.some((n) => t.includes(stem(n))) ? 0 : 1);
  const shown: string[] = [];
  for (const path of [...tests].sort((a, b) => score(a) - score(b) || a.length - b.length)) {
    const read = await repo.readText(path, { maxBytes: MAX_READ });
    if (!read.ok) continue;
    const lines = read.text.split('\n');
    const cut = lines.length > EXAMPLE_LINES ? '\n… (cut)' : '';
    shown.push(`### ${path}\n${lines.slice(0, EXAMPLE_LINES).join('\n')}${cut}`);
    if (shown.length === 2) break;
  }
  return shown.join('\n\n');
}
