/**
 * One reader for the repository (`src/repo-files/`): nothing else in `src/` may read files, list
 * folders or follow links by itself, except the modules below, each of which reads only what is
 * not the repository's — the operator's files, the bot's own bookkeeping, what ships with
 * Autofix. A new module that needs to read a worktree uses `openRepoFiles` (or, at a pinned
 * commit, `readCommitFiles`); one that reads something else is added here with the reason.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const SRC = resolve('src');

const NOT_THE_REPOSITORY: Record<string, string> = {
  'artifacts/prune.ts': "lists the bot's own artifact and baseline folders",
  'bin/actions/apply-patch.ts': 'reads the patch file the user names',
  'bin/actions/context.ts': 'reads the issue file the user names',
  'bin/print-run-report.ts': "lists the run's artifacts folder",
  'config/clear-startup-environment.ts': "reads and clears this process's own /proc environment",
  'config/dotenv.ts': "reads the operator's .env",
  'config/env.ts': "reads the operator's key file (PRIVATE_KEY_PATH)",
  'config/model-prices.ts': "reads the operator's price file (MODEL_PRICES_FILE)",
  'config/secret-files.ts': "reads the operator's secret files (*_FILE)",
  'demo/demo-setup.ts': "lists the demo's own folder",
  'edits/apply-change-set.ts': "opens files only to create them ('wx'), never to read",
  'exec/process-group.ts': "reads /proc of the bot's own process tree",
  'exec/sandbox.ts': 'reads kernel settings under /proc/sys',
  'exec/setup-cache/capture.ts':
    "copies what setup installed (dependencies, never tracked files) into the bot's setup cache, and searches it for the job's path to rewrite; never for a prompt",
  'exec/setup-cache/handoff.ts':
    "moves what setup installed to the run's next stage, reading its own record and rewriting the job's path in files that hold it (no link followed); never for a prompt",
  'exec/setup-cache/evict.ts': "lists and reads the bot's setup-cache entries and leases",
  'exec/setup-cache/restore.ts':
    "copies the bot's setup-cache entry into a worktree (files with the job's path rewritten)",
  'exec/setup-cache/setup-cache.ts': "lists the job's HOME: did setup install there",
  'pipeline/code/cached-setup.ts':
    "reads the job folder's record of the key its worktree was set up for (the bot's own file)",
  'exec/setup-cache/tree-copy.ts':
    "lists a folder of what setup produced (or of the bot's cache entry) to copy it by `cp`; never for a prompt",
  'git/abandoned-jobs.ts': "reads the bot's job records in its workdir",
  'git/file-lock.ts': "reads the bot's lock owner files",
  'git/scrub-mirror.ts': "reads the bot's mirror's git data to clean it, never for a prompt",
  'git/worktree-pool.ts': "reads the bot's worktree pool records",
  'llm/load-agent.ts': 'reads the agents shipped with Autofix',
  'hosts/modes/load-mode-agent.ts': 'reads the agents shipped with Autofix',
  'hosts/modes/work-order/read-work-order.ts': 'reads the work order file the operator names',
  'pipeline/code/code-workspace.ts': 'reads the cached baseline in the workdir',
  'hosts/local/run-local.ts': "reads --issue-file and lists the run's artifacts folder",
  'hosts/app/setup-page.ts': 'reads app.yml, shipped with Autofix or the operator’s',
};

/** What reads a file, a folder or a link (writes, `stat`, `lstat` and `realpath` do not). */
const READS = new Set([
  'readFile',
  'readFileSync',
  'createReadStream',
  'open',
  'openSync',
  'opendir',
  'opendirSync',
  'readdir',
  'readdirSync',
  'readlink',
  'readlinkSync',
  'read',
  'readSync',
  'readv',
  'readvSync',
  'copyFile',
  'copyFileSync',
  'cp',
  'cpSync',
  'promises',
  'watch',
  'watchFile',
]);

function sources(): string[] {
  return readdirSync(SRC, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => relative(SRC, join(e.parentPath, e.name)));
}

/** The reading functions a file takes from Node's `fs` (a namespace or default import counts). */
function fsReadsOf(text: string): string[] {
  const found: string[] = [];
  const from = /import\s+(type\s+)?([^;]*?)\s+from\s+['"](?:node:)?fs(?:\/promises)?['"]/g;
  for (const m of text.matchAll(from)) {
    if (m[1]) continue;
    const clause = m[2]!;
    if (/\*\s+as\s+\w+/.test(clause) || /^\w+\s*(,|$)/.test(clause)) found.push(clause.trim());
    const named = /\{([^}]*)\}/.exec(clause)?.[1] ?? '';
    for (const part of named.split(',')) {
      const [name] = part
        .replace(/^\s*type\s+/, '')
        .trim()
        .split(/\s+as\s+/);
      if (name && !part.trim().startsWith('type ') && READS.has(name)) found.push(name);
    }
  }
  for (const m of text.matchAll(/import\(\s*['"](?:node:)?fs(?:\/promises)?['"]\s*\)/g))
    found.push(m[0]);
  for (const m of text.matchAll(/require\(\s*['"](?:node:)?fs(?:\/promises)?['"]\s*\)/g))
    found.push(m[0]);
  return found;
}

/** `git show <rev>:<path>` and `git cat-file`: a commit's files, read around the reader. */
function gitReadsOf(text: string): string[] {
  return [
    ...text.matchAll(/\[\s*['"]show['"]\s*,\s*`[^`]*\}:[^`]*`/g),
    ...text.matchAll(/['"]cat-file['"]\s*,\s*['"](blob|-p)['"]/g),
  ].map((m) => m[0]);
}

describe('every read of the repository goes through src/repo-files/', () => {
  const files = sources().filter((f) => !f.startsWith('repo-files/'));

  it('no module outside it reads files, folders or links, but those that read no repository', () => {
    const offenders = files.flatMap((file) => {
      const reads = fsReadsOf(readFileSync(join(SRC, file), 'utf8'));
      return reads.length > 0 && !(file in NOT_THE_REPOSITORY)
        ? [`${file}: ${reads.join(', ')}`]
        : [];
    });
    expect(offenders).toEqual([]);
  });

  it('no module outside it reads files of a commit with git itself', () => {
    const offenders = files.flatMap((file) =>
      gitReadsOf(readFileSync(join(SRC, file), 'utf8')).map((r) => `${file}: ${r}`),
    );
    expect(offenders).toEqual([]);
  });

  it('keeps the list of exceptions true: each one still reads something', () => {
    const stale = Object.keys(NOT_THE_REPOSITORY).filter(
      (file) => fsReadsOf(readFileSync(join(SRC, file), 'utf8')).length === 0,
    );
    expect(stale).toEqual([]);
  });

  it('sees each form of import it looks for', () => {
    expect(fsReadsOf("import { readFile, stat } from 'node:fs/promises';")).toEqual(['readFile']);
    expect(fsReadsOf("import { readFileSync as r } from 'fs';")).toEqual(['readFileSync']);
    expect(fsReadsOf("import * as fs from 'node:fs';")).toEqual(['* as fs']);
    expect(fsReadsOf("import fs from 'node:fs';")).toEqual(['fs']);
    expect(fsReadsOf("import type { Stats } from 'node:fs';")).toEqual([]);
    expect(fsReadsOf("import { lstat, realpath, writeFile } from 'node:fs/promises';")).toEqual([]);
    expect(fsReadsOf("const fs = await import('node:fs');")).toHaveLength(1);
    expect(gitReadsOf("runGit(['show', `${ws.base_commit}:${path}`], {})")).toHaveLength(1);
    expect(gitReadsOf("runGit(['show', '--stat', sha])")).toEqual([]);
  });
});
