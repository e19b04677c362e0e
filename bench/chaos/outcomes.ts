/**
 * What the runs left, read from the outside once the system is idle: pull requests, status and
 * failure comments on the fake GitHub, branches on the bare remote, and job folders and
 * registered worktrees in each worker's workdir.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { FakeGitHub, FakePull } from '../../fakes/github/index.js';
import { delivered, type Delivery } from './triggers.js';

export type Outcome = 'pr' | 'failed' | 'pr+failure' | 'stopped' | 'lost';

export interface RunResult {
  run: number;
  issue: number;
  delivery: Delivery;
  outcome: Outcome;
  /** Why a lost run is lost. */
  lostReason?: 'delivery failed' | 'delivered, no outcome';
  prs: FakePull[];
  /** `stage: CODE — message` of each failure comment. */
  failures: string[];
  /** Status comments (one per run id) and their last headline. */
  statuses: string[];
  /** Delivery → first PR or failure comment, ms. */
  outcomeMs?: number;
}

const MARKER = /^<!-- autofix-run:([^ ]+?) -->/;

function headline(body: string): string {
  if (body.includes('🚀')) return 'success';
  if (body.includes('⏹')) return 'stopped';
  if (body.includes('❌')) return 'failed';
  return 'working';
}

export function collectRuns(
  github: FakeGitHub,
  deliveries: Delivery[],
  startedAt: number,
): RunResult[] {
  const comments = [...github.comments.values()];
  const prRequests = github.calls('POST', /\/pulls$/);
  const commentRequests = github.calls('POST', /\/issues\/\d+\/comments$/);
  return deliveries.map((delivery) => {
    const { issue } = delivery;
    const prs = github.pulls.filter((p) => issueOfBranch(p.head) === issue);
    const mine = comments.filter((c) => c.issueNumber === issue);
    const failureComments = mine.filter((c) => MARKER.exec(c.body)?.[1]?.endsWith(':failure'));
    const statusComments = mine.filter((c) => {
      const id = MARKER.exec(c.body)?.[1];
      return id !== undefined && !id.endsWith(':failure');
    });
    const failures = failureComments.map((c) => {
      const stage = /failed during the \*\*([a-z]+)\*\* stage/.exec(c.body)?.[1] ?? '?';
      const error = /\*\*Error:\*\* `([A-Z_]+)` — ([^\n]*)/.exec(c.body);
      return `${stage}: ${error?.[1] ?? '?'} — ${(error?.[2] ?? '').slice(0, 160)}`;
    });
    const statuses = statusComments.map((c) => headline(c.body));
    let outcome: Outcome;
    if (prs.length > 0 && failureComments.length > 0) outcome = 'pr+failure';
    else if (prs.length > 0) outcome = 'pr';
    else if (failureComments.length > 0) outcome = 'failed';
    else if (statuses.includes('stopped')) outcome = 'stopped';
    else outcome = 'lost';
    const sent = startedAt + delivery.sentAtMs;
    const firstAt = [
      ...prRequests.filter((r) => issueOfBranch((r.body as { head?: string }).head) === issue),
      ...commentRequests.filter(
        (r) =>
          r.path.endsWith(`/issues/${issue}/comments`) &&
          MARKER.exec(String((r.body as { body?: string }).body))?.[1]?.endsWith(':failure'),
      ),
    ]
      .map((r) => r.at)
      .sort((a, b) => a - b)[0];
    const result: RunResult = {
      run: delivery.run,
      issue,
      delivery,
      outcome,
      prs,
      failures,
      statuses,
    };
    if (firstAt !== undefined) result.outcomeMs = firstAt - sent;
    if (outcome === 'lost')
      result.lostReason = delivered(delivery) ? 'delivered, no outcome' : 'delivery failed';
    return result;
  });
}

/** `autofix/fix/1007-add-returns…` → 1007. */
export function issueOfBranch(branch: string | undefined): number | undefined {
  const m = /\/(\d+)-[^/]*$/.exec(branch ?? '');
  return m ? Number(m[1]) : undefined;
}

export interface RemoteBranch {
  name: string;
  issue?: number;
  openPr: boolean;
}

export function remoteBranches(bare: string, github: FakeGitHub): RemoteBranch[] {
  const out = execFileSync(
    'git',
    ['--git-dir', bare, 'for-each-ref', '--format=%(refname:short)', 'refs/heads/'],
    { encoding: 'utf8' },
  );
  return out
    .split('\n')
    .filter((b) => b && b !== 'main')
    .map((name) => {
      const issue = issueOfBranch(name);
      const openPr = github.pulls.some((p) => p.head === name && p.state === 'open');
      return { name, ...(issue === undefined ? {} : { issue }), openPr };
    });
}

export interface Leftover {
  worker: string;
  kind: 'job folder' | 'worktree' | 'prunable worktree' | 'pool slot without worktree';
  path: string;
}

/** Registered worktrees of a mirror: path, locked (parked in the pool), prunable. */
function worktrees(mirror: string): { path: string; locked: boolean; prunable: boolean }[] {
  let out: string;
  try {
    out = execFileSync('git', ['--git-dir', mirror, 'worktree', 'list', '--porcelain'], {
      encoding: 'utf8',
    });
  } catch {
    return [];
  }
  return out
    .split('\n\n')
    .map((block) => block.split('\n'))
    .filter((lines) => lines[0]?.startsWith('worktree ') && !lines.includes('bare'))
    .map((lines) => ({
      path: lines[0]!.slice('worktree '.length),
      locked: lines.some((l) => l.startsWith('locked')),
      prunable: lines.some((l) => l.startsWith('prunable')),
    }));
}

/** Directories exactly `depth` levels below `root`. */
function globDirs(root: string, depth: number): string[] {
  if (!existsSync(root)) return [];
  let level = [root];
  for (let i = 0; i < depth; i++) {
    level = level.flatMap((dir) =>
      readdirSync(dir)
        .map((n) => join(dir, n))
        .filter((path) => statSync(path).isDirectory()),
    );
  }
  return level;
}

function mirrors(workdir: string): string[] {
  const root = join(workdir, 'mirrors');
  const found: string[] = [];
  const walk = (dir: string, depth: number): void => {
    if (!existsSync(dir) || depth > 3) return;
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (!statSync(path).isDirectory()) continue;
      if (name.endsWith('.git')) found.push(path);
      else walk(path, depth + 1);
    }
  };
  walk(root, 0);
  return found;
}

/**
 * Job folders left under `jobs/` (renamed-aside ones included) and registered worktrees that are
 * not parked in the pool (parked ones are locked and meant to stay), once per path.
 */
export function leftovers(workdirs: Record<string, string>): Leftover[] {
  const found: Leftover[] = [];
  for (const [worker, workdir] of Object.entries(workdirs)) {
    const jobs = join(workdir, 'jobs');
    const jobDirs = existsSync(jobs) ? readdirSync(jobs).map((n) => join(jobs, n)) : [];
    for (const path of jobDirs) found.push({ worker, kind: 'job folder', path });
    const parked = new Set<string>();
    for (const mirror of mirrors(workdir)) {
      for (const wt of worktrees(mirror)) {
        if (wt.locked) {
          parked.add(wt.path);
          continue;
        }
        if (jobDirs.some((dir) => wt.path === dir || wt.path.startsWith(`${dir}/`))) continue;
        found.push({ worker, kind: wt.prunable ? 'prunable worktree' : 'worktree', path: wt.path });
      }
    }
    // pool/<owner>/<repo>/<slot>/<name>: a slot must hold a parked (registered, locked) worktree.
    for (const slot of globDirs(join(workdir, 'pool'), 3)) {
      const held = readdirSync(slot).map((n) => join(slot, n));
      if (!held.some((path) => parked.has(path))) {
        found.push({ worker, kind: 'pool slot without worktree', path: slot });
      }
    }
  }
  return found;
}
