/**
 * Job folders whose process died (SIGKILL, OOM, a lost container) stay under `<workdir>/jobs`
 * with their registered worktree: a retry on another worker never comes back for them. Each job
 * folder names its owner (host, pid and the pid's start time, so a reused pid or a restarted
 * container with the same pid is not mistaken for the owner) and its mirror; opening a workspace
 * removes the folders of owners on this host that are gone, under their mirror's lock.
 */
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join, resolve, sep } from 'node:path';
import type { Logger } from '../logger.js';
import { jobsDir } from './job-paths.js';
import { removeJobDir } from './remove-job-dir.js';
import { runGit } from './run-git.js';

const OWNER_FILE = 'owner.json';

interface Owner {
  host: string;
  pid: number;
  /** Field 22 of /proc/<pid>/stat: clock ticks after boot when the process started. */
  started: string;
  mirror: string;
}

function startTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

const self = (): Pick<Owner, 'host' | 'pid' | 'started'> => ({
  host: hostname(),
  pid: process.pid,
  started: startTime(process.pid) ?? '',
});

/** Records this process as the owner of a job folder (or of a pool slot: `mirror` ''). */
export async function claimJobDir(jobDir: string, mirror: string): Promise<void> {
  await writeFile(join(jobDir, OWNER_FILE), JSON.stringify({ ...self(), mirror }));
}

/** The entries of a folder apart from its owner record. */
export async function ownedEntries(dir: string): Promise<string[] | undefined> {
  const entries = await readdir(dir).catch(() => undefined);
  return entries?.filter((e) => e !== OWNER_FILE);
}

/** True when the folder's owner (see claimJobDir) is a process of this host that is gone. */
export async function ownerIsGone(dir: string): Promise<boolean> {
  const text = await readFile(join(dir, OWNER_FILE), 'utf8').catch(() => undefined);
  if (!text) return false;
  try {
    return ownerGone(JSON.parse(text) as Owner);
  } catch {
    return false;
  }
}

/** True only when the owner is on this host and certainly gone. */
function ownerGone(owner: Owner): boolean {
  if (owner.host !== hostname()) return false;
  const started = startTime(owner.pid);
  return started === undefined || started !== owner.started;
}

/** Removes the job folders of dead owners; returns the ones removed. Never throws. */
export async function sweepAbandonedJobs(workdir: string, log?: Logger): Promise<string[]> {
  const jobs = jobsDir(workdir);
  const removed: string[] = [];
  for (const entry of await readdir(jobs).catch(() => [] as string[])) {
    const dir = join(jobs, entry);
    try {
      if (/\.removing-[0-9a-f]{8}$/.test(entry)) {
        // Renamed aside by a removal that died before its delete: git forgot it already.
        const aside = await readFile(join(dir, OWNER_FILE), 'utf8').catch(() => undefined);
        const owner = aside ? (JSON.parse(aside) as Owner) : undefined;
        if (!owner || ownerGone(owner)) {
          await rm(dir, { recursive: true, force: true });
          removed.push(dir);
        }
        continue;
      }
      const text = await readFile(join(dir, OWNER_FILE), 'utf8').catch(() => undefined);
      if (!text) continue; // being created, or from before owners were recorded
      const owner = JSON.parse(text) as Owner;
      if (!ownerGone(owner)) continue;
      // Only a mirror of this workdir is ever touched, whatever the file says.
      if (!resolve(owner.mirror).startsWith(join(resolve(workdir), 'mirrors') + sep)) {
        throw new Error(`owner names a mirror outside ${workdir}: ${owner.mirror}`);
      }
      await removeJobDir(dir, owner.mirror, () =>
        runGit(['worktree', 'prune'], { cwd: owner.mirror }).then(() => undefined),
      );
      removed.push(dir);
    } catch (err) {
      log?.warn({ err, dir }, 'could not remove an abandoned job folder');
    }
  }
  if (removed.length > 0) log?.info({ removed }, 'removed job folders of processes that died');
  return removed;
}
