/**
 * Part 1: what starting one command costs, for a trivial command (`true`) and for Node
 * (`node -e 0`): unsandboxed, sandboxed (as root: prlimit → privileged bwrap → setpriv →
 * unprivileged bwrap, plus the chown hand-over and take-back of worktree and HOME), and sandboxed
 * with the setup network (egress proxy + in-sandbox bridge); with a registry, one HTTPS request
 * (curl) direct and through the proxy. Then the sandboxed command split into its parts, and how
 * often its process group outlives the leader (group-drain.ts), so the difference can be
 * attributed.
 */
import { chmod, mkdir, mkdtemp } from 'node:fs/promises';
import { join } from 'node:path';
import type { SandboxPolicy } from '../../src/exec/sandbox-policy.js';
import { freePort } from '../../src/hosts/app/free-port.js';
import {
  bridgeOnly,
  chownRoundTrip,
  proxyOpenClose,
  rawBwrap,
  runnerCommand,
  type CommandDirs,
} from './sandbox-pieces.js';
import { measureGroupDrain, type GroupDrain } from './group-drain.js';
import { median, timeInterleaved, type Case, type Timing } from './timings.js';

export interface StartCost {
  commands: Timing[];
  parts: Timing[];
  drain: GroupDrain;
  /** Medians of the `true` rows in ms: what a command costs, whatever it does. */
  trueMs: { none: number; bwrap: number; egress: number; chownEmpty: number };
}

async function commandDirs(scratch: string, name: string): Promise<CommandDirs> {
  const dir = await mkdtemp(join(scratch, `${name}-`));
  const dirs = { worktree: join(dir, 'worktree'), home: join(dir, 'home') };
  await mkdir(dirs.worktree);
  await mkdir(dirs.home);
  return dirs;
}

export async function measureStartCost(
  scratch: string,
  runs: number,
  policies: { none: SandboxPolicy; bwrap: SandboxPolicy },
  /** A registry URL: adds one HTTPS request (curl) direct vs through the proxy and bridge. */
  registryUrl?: string,
): Promise<StartCost> {
  const node = [process.execPath, '-e', '0'];
  const commandCases: Case[] = [];
  for (const [label, argv] of [
    ['true', ['true']],
    ['node -e 0', node],
  ] as const) {
    const none = await commandDirs(scratch, 'none');
    const bwrap = await commandDirs(scratch, 'bwrap');
    const egress = await commandDirs(scratch, 'egress');
    commandCases.push(
      {
        name: `${label}, sandbox none`,
        run: () => runnerCommand(argv, none, policies.none, false),
      },
      { name: `${label}, bwrap`, run: () => runnerCommand(argv, bwrap, policies.bwrap, false) },
      {
        name: `${label}, bwrap + egress (setup)`,
        run: () => runnerCommand(argv, egress, policies.bwrap, true),
      },
    );
  }
  if (registryUrl) {
    const curl = ['curl', '-fsS', '-o', '/dev/null', registryUrl];
    const none = await commandDirs(scratch, 'curl-none');
    const egress = await commandDirs(scratch, 'curl-egress');
    commandCases.push(
      {
        name: 'curl (1 HTTPS request to the registry), sandbox none',
        run: () => runnerCommand(curl, none, policies.none, false),
      },
      {
        name: 'curl (1 HTTPS request to the registry), bwrap + egress (setup)',
        run: () => runnerCommand(curl, egress, policies.bwrap, true),
      },
    );
  }
  const commands = await timeInterleaved(commandCases, runs);

  const chowned = await commandDirs(scratch, 'chown');
  // The raw command lines skip the hand-over: the sandbox user only needs to enter the dirs.
  const raw = await commandDirs(scratch, 'raw');
  await chmod(raw.worktree, 0o755);
  await chmod(raw.home, 0o755);
  const port = await freePort('127.0.0.1');
  const parts = await timeInterleaved(
    [
      {
        name: 'part: chown hand-over + take-back (empty worktree + HOME)',
        run: () => chownRoundTrip([chowned.worktree, chowned.home], policies.bwrap),
      },
      {
        name: 'part: bwrap chain alone, `true` (prlimit → bwrap → setpriv → bwrap)',
        run: () => rawBwrap(['true'], raw, policies.bwrap, true),
      },
      {
        name: 'part: one bwrap alone, `true` (prlimit → bwrap --unshare-user, no setpriv)',
        run: () => rawBwrap(['true'], raw, policies.bwrap, false),
      },
      {
        name: 'part: egress proxy open + close',
        run: () => proxyOpenClose(policies.bwrap),
      },
      {
        name: 'part: bridge alone, `true` (node -e bridge, listen, spawn)',
        run: () => bridgeOnly(['true'], port),
      },
    ],
    runs,
  );
  return {
    commands,
    parts,
    drain: await measureGroupDrain(raw, policies.bwrap, runs),
    trueMs: {
      none: median(commands[0]!.samples),
      bwrap: median(commands[1]!.samples),
      egress: median(commands[2]!.samples),
      chownEmpty: median(parts[0]!.samples),
    },
  };
}
