/**
 * One bare mirror per repository under the workdir, created on first use and fetched once per
 * job under a cross-process lock (see workspace.ts for what else runs under it). Only the base
 * branch and the bot's own branches are fetched: that is all a job reads, and it keeps a first
 * fetch far smaller than a full clone. The remote URL is passed per command (never stored, so
 * never with credentials). Housekeeping (`git gc --auto`) runs in the foreground under the lock,
 * never detached in the background where it could race another job.
 *
 * Repository code must never be able to leave something in a mirror that our own git would run
 * (issue #11): the bot writes the mirror's whole config itself, and `scrubMirror` puts it back
 * before each job.
 */
import { access, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AutofixError } from '../errors.js';
import type { Logger } from '../logger.js';
import { withFileLock } from './file-lock.js';
import { revParse, runGit } from './run-git.js';
import { scrubMirror } from './scrub-mirror.js';
import { writeMirrorConfig } from './write-mirror-config.js';

export interface MirrorOptions {
  workdir: string;
  /** `owner/name`: names the mirror directory. */
  repo: string;
  /** Without credentials: https://github.com/owner/name.git, or file:// in tests. */
  remoteUrl: string;
  baseBranch: string;
  branchPrefix: string;
  token?: string;
  /**
   * The base commit an earlier stage of the run worked from: the job works from it too (every
   * stage of a run sees the same code), and with `fetch: 'if-missing'` skips the fetch when the
   * mirror already has it.
   */
  pinnedBase?: string;
  fetch?: 'always' | 'if-missing';
  /** Told when the mirror had to be restored (see scrub-mirror.ts). */
  logger?: Logger;
}

/** `git gc --auto` per mirror at most this often per process: it is a process spawn per job. */
const GC_EVERY_MS = 10 * 60 * 1000;
const lastGc = new Map<string, number>();

const REPO_NAME = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/;

export function mirrorDir(workdir: string, repo: string): string {
  if (!REPO_NAME.test(repo) || repo.split('/').some((p) => p === '.' || p === '..')) {
    throw new AutofixError('INTERNAL', `bad repository name ${JSON.stringify(repo)}`, {
      recoverable: false,
    });
  }
  return join(workdir, 'mirrors', `${repo}.git`);
}

export function assertNoCredentials(url: string): void {
  if (URL.canParse(url)) {
    const parsed = new URL(url);
    if (parsed.username || parsed.password) {
      throw new AutofixError('INTERNAL', 'remote URLs must not carry credentials', {
        recoverable: false,
      });
    }
  }
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

async function initMirror(dir: string): Promise<void> {
  // Written last: a mirror without it is a half-made one (a crash during init), started over.
  const ready = join(dir, 'autofix-ready');
  if (await exists(ready)) return;
  await rm(dir, { recursive: true, force: true });
  // No templates: no sample hooks, nothing but what git needs.
  await runGit(['init', '--quiet', '--bare', '--template=', dir], { cwd: '/' });
  await writeMirrorConfig(dir);
  await writeFile(ready, '');
}

/** The mirror's cross-process lock: held for fetches and for adding or forgetting worktrees. */
export function withMirrorLock<T>(
  dir: string,
  fn: () => Promise<T>,
  timeoutMs?: number,
): Promise<T> {
  return withFileLock(`${dir}.lock`, fn, { timeoutMs });
}

/**
 * Brings the mirror up to date and returns the base branch head. The caller holds the mirror
 * lock: a fetch checks connectivity over every ref, including each worktree's HEAD, and must not
 * see a worktree that is half added or half removed.
 */
export async function updateMirror(dir: string, options: MirrorOptions): Promise<string> {
  assertNoCredentials(options.remoteUrl);
  await initMirror(dir);
  await scrubMirror(dir, options.logger);
  const pinned = options.pinnedBase;
  if (pinned === undefined) {
    await fetchMirror(dir, options);
  } else {
    let sha = options.fetch === 'if-missing' ? await revParse(dir, pinned) : null;
    if (!sha) {
      await fetchMirror(dir, options);
      sha = await revParse(dir, pinned);
    }
    if (!sha) {
      throw new AutofixError(
        'STALE_CONTEXT',
        `the run's base commit ${pinned.slice(0, 12)} is no longer on ${options.repo} (was ${options.baseBranch} force-pushed?)`,
        { details: { commit: pinned }, recoverable: false },
      );
    }
    return sha;
  }
  const baseSha = await revParse(dir, `refs/remotes/origin/${options.baseBranch}`);
  if (!baseSha) {
    throw new AutofixError(
      'INTERNAL',
      `base branch ${options.baseBranch} not found on ${options.repo}`,
      {
        recoverable: false,
      },
    );
  }
  return baseSha;
}

async function fetchMirror(dir: string, options: MirrorOptions): Promise<void> {
  await runGit(
    [
      'fetch',
      '--quiet',
      '--prune',
      '--no-tags',
      '--no-write-fetch-head',
      '--no-auto-maintenance',
      '--upload-pack=git-upload-pack', // a planted remote.<url>.uploadpack cannot take effect
      // The default, stated: a `remote.<url>.uploadpack` in the config could name a command for
      // local remotes (scrubMirror removes it; this holds even between two scrubs).
      '--upload-pack=git-upload-pack',
      options.remoteUrl,
      `+refs/heads/${options.baseBranch}:refs/remotes/origin/${options.baseBranch}`,
      `+refs/heads/${options.branchPrefix}*:refs/remotes/origin/${options.branchPrefix}*`,
    ],
    { cwd: dir, token: options.token },
  ).catch((err: unknown) => {
    throw remoteError(err, `fetching ${options.repo}`);
  });
  // Worktrees whose directories are gone (ended or crashed jobs) are forgotten here.
  await runGit(['worktree', 'prune'], { cwd: dir });
  // Repacks only past git's thresholds; objects used by live worktrees are kept.
  if (Date.now() - (lastGc.get(dir) ?? 0) >= GC_EVERY_MS) {
    await runGit(['gc', '--auto', '--quiet'], { cwd: dir });
    lastGc.set(dir, Date.now());
  }
}

/** Maps a failed network git command to PERMISSION_DENIED when the remote said no. */
export function remoteError(err: unknown, doing: string): unknown {
  if (!(err instanceof AutofixError)) return err;
  const stderr = (err.details as { stderr?: string } | undefined)?.stderr ?? err.message;
  if (
    /\b(401|403)\b|permission to .* denied|authentication failed|could not read username/i.test(
      stderr,
    )
  ) {
    return new AutofixError(
      'PERMISSION_DENIED',
      `${doing}: the remote refused access: ${stderr.trim()}`,
      {
        details: err.details,
        recoverable: false,
      },
    );
  }
  return err;
}
