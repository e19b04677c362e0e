/**
 * What a hostile repository (or repository code run in `setup`) can leave at a path the worker
 * reads: links to the worker's environment, its parent's, a file in its HOME, a file outside the
 * worktree (directly, through `..`, through a linked directory, as a hard link), a FIFO, a 2 GB
 * sparse file, a link loop. Each kind is planted at a path, and `canaries` says what must never
 * come back from a read: the worker's own environment entries and the planted files' contents.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import {
  linkSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';

export const HOSTILE_KINDS = [
  'proc-self-environ',
  'proc-parent-environ',
  'home-file',
  'outside-file',
  'dotdot-chain',
  'linked-directory',
  'hard-link',
  'fifo',
  'sparse-2g',
  'link-loop',
] as const;
export type HostileKind = (typeof HOSTILE_KINDS)[number];

/** Kinds git can hold (links): a repository's default branch can carry them. */
export const COMMITTABLE_KINDS: readonly HostileKind[] = [
  'proc-self-environ',
  'proc-parent-environ',
  'home-file',
  'outside-file',
  'dotdot-chain',
  'link-loop',
];

export interface HostileWorld {
  /** Strings no read may return: environment entries of this process and its parent, canaries. */
  canaries: string[];
  /** Plants `kind` at `path` inside `root` (parents created). */
  plant(root: string, path: string, kind: HostileKind): void;
  /**
   * A link at `path` inside `root` to a new file outside holding `content` and a canary (where
   * `content` says `CANARY`, or appended): what a reader that followed the link would take for
   * the repository's own file.
   */
  linkOut(root: string, path: string, content: string): void;
  cleanup(): void;
}

/** Long, distinctive entries of a process's environment (short ones like `HOME=/root` are everywhere). */
function environEntries(pid: number | 'self'): string[] {
  const raw = readFileSync(`/proc/${pid}/environ`, 'utf8');
  return raw.split('\0').filter((e) => e.length >= 24 && /^[A-Z_][A-Z0-9_]*=/.test(e));
}

export function createHostileWorld(): HostileWorld {
  const id = randomUUID().slice(0, 8);
  const outside = mkdtempSync(join(tmpdir(), 'autofix-outside-'));
  const outsideCanary = `OUTSIDE-CANARY-${randomUUID()}`;
  const outsideFile = join(outside, 'secret.txt');
  writeFileSync(outsideFile, `${outsideCanary}\n`);
  const homeFile = join(homedir(), `.autofix-hostile-${id}`);
  const homeCanary = `HOME-CANARY-${randomUUID()}`;
  writeFileSync(homeFile, `${homeCanary}\n`);
  const canaries = [
    outsideCanary,
    homeCanary,
    ...environEntries('self'),
    ...environEntries(process.ppid),
  ];

  const plant = (root: string, path: string, kind: HostileKind): void => {
    const abs = join(root, path);
    mkdirSync(kind === 'linked-directory' ? dirname(dirname(abs)) : dirname(abs), {
      recursive: true,
    });
    const up = relative(dirname(abs), '/');
    switch (kind) {
      case 'proc-self-environ':
        return symlinkSync('/proc/self/environ', abs);
      case 'proc-parent-environ':
        return symlinkSync(`/proc/${process.ppid}/environ`, abs);
      case 'home-file':
        return symlinkSync(homeFile, abs);
      case 'outside-file':
        return symlinkSync(outsideFile, abs);
      case 'dotdot-chain':
        return symlinkSync(join(up, '..', '..', outsideFile), abs);
      case 'linked-directory': {
        // `path` is reached through a directory that is a link to the outside folder.
        const name = path.split('/').pop()!;
        writeFileSync(join(outside, name), `${outsideCanary}\n`);
        return symlinkSync(outside, dirname(abs));
      }
      case 'hard-link':
        return linkSync(outsideFile, abs);
      case 'fifo':
        execFileSync('mkfifo', [abs]);
        return;
      case 'sparse-2g':
        writeFileSync(abs, '');
        return truncateSync(abs, 2 * 1024 ** 3);
      case 'link-loop':
        return symlinkSync(path.split('/').pop()!, abs);
    }
  };
  const linkOut = (root: string, path: string, content: string): void => {
    const target = join(outside, `file-${randomUUID().slice(0, 8)}`);
    // `CANARY` in the content stands for the canary (inside JSON, say); else it is appended.
    const text = content.includes('CANARY')
      ? content.replaceAll('CANARY', outsideCanary)
      : `${content}\n${outsideCanary}\n`;
    writeFileSync(target, text);
    mkdirSync(dirname(join(root, path)), { recursive: true });
    symlinkSync(target, join(root, path));
  };
  return {
    canaries,
    plant,
    linkOut,
    cleanup: () => {
      rmSync(outside, { recursive: true, force: true });
      rmSync(homeFile, { force: true });
    },
  };
}

/** The canaries `text` holds (none, for a read that kept its rules). */
export function leakedCanaries(text: string, world: Pick<HostileWorld, 'canaries'>): string[] {
  return world.canaries.filter((c) => text.includes(c));
}
