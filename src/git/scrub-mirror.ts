/**
 * Puts a mirror back to what the bot wrote, before a job uses it (issue #11). Repository code
 * that escaped the sandbox once wrote `core.fsmonitor` into a mirror's config, and every later
 * job's git ran it. Command-scope settings (safe-git-config.ts) switch off the keys git lets us
 * override; everything else in a config that can run a program — `include.path`, `includeIf`,
 * `filter.<x>.*`, `diff.<x>.textconv`, `diff.external`, `merge.<x>.driver`, `trailer.<x>.cmd`,
 * `remote.<x>.uploadpack`, `url.<x>.insteadOf`, `extensions.worktreeConfig` — is keyed by names
 * an attacker picks, so the only sound check is "exactly the config we wrote":
 *
 * - `config`: compared with MIRROR_CONFIG; any difference is logged (key names only: values are
 *   attacker text, or someone's secret) and the file rewritten atomically.
 * - `config.worktree` (mirror and each `worktrees/<id>/`): removed. Git reads them only with
 *   `extensions.worktreeConfig`, which the rewrite drops; gone, nothing can revive them.
 * - `worktrees/<id>/commondir` must lead back to the mirror: a worktree git directory without it
 *   is a repository of its own, configured by its own `worktrees/<id>/config` (removed too).
 * - `hooks/`: everything but git's `*.sample` files is removed. Our git never runs hooks
 *   (`core.hooksPath=/dev/null`); an operator's plain `git` in the mirror would.
 *
 * Left alone on purpose: `info/attributes` and `.gitattributes` only name drivers, and a driver
 * needs config, of which none is left; `objects/info/alternates` can add objects but not change
 * any (they are content-addressed), and the refs command it uses is overridden.
 *
 * Runs under the mirror lock (worktree add/prune also write `worktrees/`). Between two runs a
 * sandbox escape could plant again: the overridden keys stay off, the rest works until the next
 * run, so a caller about to run git after repository code ran (commit, push) should run it too.
 */
import { randomUUID } from 'node:crypto';
import { lstat, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Stats } from 'node:fs';
import type { Logger } from '../logger.js';
import { runGit } from './run-git.js';
import { MIRROR_CONFIG, MIRROR_CONFIG_ENTRIES, writeMirrorConfig } from './write-mirror-config.js';

export interface ScrubReport {
  /** Config keys that were not ours, or had other values (names only). */
  unexpectedKeys: string[];
  /** Our keys that were missing. */
  missingKeys: string[];
  /** Mirror-relative paths removed or rewritten. */
  repaired: string[];
}

const MAX_LISTED = 50;

async function lstatOrNull(path: string): Promise<Stats | null> {
  return lstat(path).catch(() => null);
}

/** A key as git prints it, safe to log: one line, bounded. */
function keyName(key: string): string {
  const flat = key.replace(/[^\x20-\x7e]/g, '?');
  return flat.length > 100 ? `${flat.slice(0, 100)}…` : flat;
}

/** The entries of a config file as git reads it (no includes), or null when git cannot. */
async function configEntries(path: string): Promise<[string, string][] | null> {
  const r = await runGit(['config', '--file', path, '--no-includes', '--list', '-z'], {
    cwd: '/',
    okCodes: [1, 3, 128],
  });
  if (r.code !== 0) return null;
  return r.stdout
    .split('\0')
    .filter((entry) => entry !== '')
    .map((entry): [string, string] => {
      const newline = entry.indexOf('\n');
      // A bare `key` (no `=`) prints without a newline: git reads it as true.
      return newline < 0 ? [entry, ''] : [entry.slice(0, newline), entry.slice(newline + 1)];
    });
}

function difference(
  have: readonly (readonly [string, string])[],
  want: readonly (readonly [string, string])[],
): string[] {
  const left = want.map(([k, v]) => `${k}\n${v}`);
  const out: string[] = [];
  for (const [k, v] of have) {
    const i = left.indexOf(`${k}\n${v}`);
    if (i >= 0) left.splice(i, 1);
    else out.push(k);
  }
  return out;
}

async function scrubConfig(dir: string, report: ScrubReport): Promise<boolean> {
  const path = join(dir, 'config');
  const info = await lstatOrNull(path);
  const same =
    info?.isFile() &&
    info.size === Buffer.byteLength(MIRROR_CONFIG) &&
    (await readFile(path, 'utf8')) === MIRROR_CONFIG;
  if (same) return false;
  const entries = info?.isFile() ? await configEntries(path) : null;
  if (entries === null) {
    report.unexpectedKeys.push(info?.isFile() ? '(unreadable config)' : '(config not a file)');
  } else {
    report.unexpectedKeys.push(...new Set(difference(entries, MIRROR_CONFIG_ENTRIES)));
    const missing = difference(MIRROR_CONFIG_ENTRIES, entries);
    report.missingKeys.push(...missing.filter((k) => !report.unexpectedKeys.includes(k)));
  }
  await writeMirrorConfig(dir);
  return true;
}

async function remove(dir: string, relative: string, report: ScrubReport): Promise<void> {
  if ((await lstatOrNull(join(dir, relative))) === null) return;
  // `rm` removes a symbolic link itself, never what it points to.
  await rm(join(dir, relative), { recursive: true, force: true });
  report.repaired.push(relative);
}

async function scrubHooks(dir: string, report: ScrubReport): Promise<void> {
  const info = await lstatOrNull(join(dir, 'hooks'));
  if (info === null) return;
  if (!info.isDirectory()) return remove(dir, 'hooks', report);
  for (const name of await readdir(join(dir, 'hooks'))) {
    if (!name.endsWith('.sample')) await remove(dir, join('hooks', name), report);
  }
}

async function scrubWorktree(dir: string, id: string, report: ScrubReport): Promise<void> {
  const gitDir = join('worktrees', id);
  if (!(await lstatOrNull(join(dir, gitDir)))?.isDirectory()) return remove(dir, gitDir, report);
  await remove(dir, join(gitDir, 'config.worktree'), report);
  await remove(dir, join(gitDir, 'config'), report);
  const commondir = join(dir, gitDir, 'commondir');
  const info = await lstatOrNull(commondir);
  const target = info?.isFile() ? (await readFile(commondir, 'utf8')).trim() : null;
  if (target !== null && resolve(dir, gitDir, target) === resolve(dir)) return;
  const temp = `${commondir}.autofix-${randomUUID()}`;
  await writeFile(temp, '../..\n', { flag: 'wx' });
  await rename(temp, commondir);
  report.repaired.push(join(gitDir, 'commondir'));
}

async function scrubWorktrees(dir: string, report: ScrubReport): Promise<void> {
  const info = await lstatOrNull(join(dir, 'worktrees'));
  if (info === null) return;
  if (!info.isDirectory()) return remove(dir, 'worktrees', report);
  for (const id of await readdir(join(dir, 'worktrees'))) await scrubWorktree(dir, id, report);
}

function listed(keys: string[]): string[] {
  const shown = keys.slice(0, MAX_LISTED).map(keyName);
  return keys.length > MAX_LISTED ? [...shown, `… ${keys.length - MAX_LISTED} more`] : shown;
}

export async function scrubMirror(dir: string, logger?: Logger): Promise<ScrubReport> {
  const report: ScrubReport = { unexpectedKeys: [], missingKeys: [], repaired: [] };
  const configRewritten = await scrubConfig(dir, report);
  await remove(dir, 'config.worktree', report);
  await scrubHooks(dir, report);
  await scrubWorktrees(dir, report);
  const tampered =
    report.unexpectedKeys.length + report.missingKeys.length + report.repaired.length > 0;
  if (tampered) {
    logger?.warn(
      {
        mirror: dir,
        unexpected_keys: listed(report.unexpectedKeys),
        missing_keys: listed(report.missingKeys),
        repaired: listed(report.repaired),
      },
      'the repository mirror had git settings or files the bot never writes (repository code may have tampered with it); restored',
    );
  } else if (configRewritten) {
    logger?.debug({ mirror: dir }, 'mirror config reformatted to the canonical layout');
  }
  return report;
}
