/**
 * The seeded schedule: when each trigger is sent and which fault is injected when, with all its
 * parameters, decided before anything starts. The same `--seed` gives the same schedule; what the
 * app does under it (and so the outcomes) still depends on timing.
 */
import { createRng, type Rng } from '../patch/prng.js';

export type FaultKind =
  | 'worker-kill'
  | 'redis-restart'
  | 'serve-kill'
  | 'github-502'
  | 'github-403-retry-after'
  | 'github-timeout'
  | 'github-slow';

export const FAULT_KINDS: readonly FaultKind[] = [
  'worker-kill',
  'redis-restart',
  'serve-kill',
  'github-502',
  'github-403-retry-after',
  'github-timeout',
  'github-slow',
];

/** Which GitHub requests a GitHub fault hits (method `*` = any). */
export interface Target {
  name: string;
  method: string;
  path: RegExp;
}

export const TARGETS: readonly Target[] = [
  { name: 'any request', method: '*', path: /./ },
  { name: 'config read', method: 'GET', path: /\/contents\// },
  { name: 'permission', method: 'GET', path: /\/collaborators\/[^/]+\/permission$/ },
  { name: 'token', method: 'POST', path: /\/access_tokens$/ },
  { name: 'comment', method: '*', path: /\/issues\/(\d+\/comments|comments\/\d+)$/ },
  { name: 'PR create', method: 'POST', path: /\/pulls$/ },
  { name: 'PR lookup', method: 'GET', path: /\/pulls$/ },
  { name: 'label/reaction', method: 'POST', path: /\/(labels|reactions)$/ },
];

export type Fault =
  | { kind: 'worker-kill'; worker: number; downMs: number }
  | { kind: 'redis-restart'; signal: 'SIGTERM' | 'SIGKILL'; downMs: number }
  | { kind: 'serve-kill'; downMs: number }
  | { kind: 'github-502'; target: Target; times: number }
  | { kind: 'github-403-retry-after'; target: Target; times: number; retryAfterS: number }
  | { kind: 'github-timeout'; target: Target; times: number; delayMs: number }
  | { kind: 'github-slow'; target: Target; times: number; delayMs: number };

export interface TriggerEvent {
  type: 'trigger';
  atMs: number;
  /** 0-based run index. */
  run: number;
  issue: number;
}

export interface FaultEvent {
  type: 'fault';
  atMs: number;
  fault: Fault;
}

export type ScheduledEvent = TriggerEvent | FaultEvent;

export interface Schedule {
  triggers: TriggerEvent[];
  faults: FaultEvent[];
  /** Both, in time order. */
  events: ScheduledEvent[];
}

export const FIRST_ISSUE = 1001;

const WEIGHTS: Record<FaultKind, number> = {
  'worker-kill': 3,
  'redis-restart': 2,
  'serve-kill': 1,
  'github-502': 2,
  'github-403-retry-after': 1.5,
  'github-timeout': 1,
  'github-slow': 1,
};

function pickKind(rng: Rng): FaultKind {
  const total = FAULT_KINDS.reduce((sum, k) => sum + WEIGHTS[k], 0);
  let x = rng.next() * total;
  for (const kind of FAULT_KINDS) {
    x -= WEIGHTS[kind];
    if (x < 0) return kind;
  }
  return 'worker-kill';
}

function makeFault(rng: Rng, kind: FaultKind, workers: number): Fault {
  switch (kind) {
    case 'worker-kill':
      return { kind, worker: rng.int(1, workers), downMs: rng.int(500, 4000) };
    case 'redis-restart':
      return { kind, signal: rng.chance(0.5) ? 'SIGTERM' : 'SIGKILL', downMs: rng.int(500, 4000) };
    case 'serve-kill':
      return { kind, downMs: rng.int(500, 3000) };
    case 'github-502':
      return { kind, target: rng.pick(TARGETS), times: rng.int(1, 6) };
    case 'github-403-retry-after':
      return { kind, target: rng.pick(TARGETS), times: rng.int(1, 3), retryAfterS: rng.int(1, 3) };
    case 'github-timeout':
      return {
        kind,
        target: rng.pick(TARGETS),
        times: rng.int(1, 2),
        delayMs: rng.int(5000, 15000),
      };
    case 'github-slow':
      return {
        kind,
        target: rng.pick(TARGETS),
        times: rng.int(1, 4),
        delayMs: rng.int(1000, 5000),
      };
  }
}

export function makeSchedule(options: {
  seed: number;
  runs: number;
  spacingMs: number;
  faultRate: number;
  workers: number;
}): Schedule {
  const rng = createRng(options.seed);
  const triggers: TriggerEvent[] = [];
  for (let run = 0; run < options.runs; run++) {
    const jitter = rng.int(0, Math.floor(options.spacingMs / 2));
    triggers.push({
      type: 'trigger',
      atMs: 1000 + run * options.spacingMs + jitter,
      run,
      issue: FIRST_ISSUE + run,
    });
  }
  const lastTrigger = triggers.at(-1)?.atMs ?? 0;
  // Faults from the first trigger until a little after the last one (runs still in flight).
  const window = lastTrigger + 15_000;
  const count = Math.round(options.runs * options.faultRate);
  const faults: FaultEvent[] = [];
  for (let i = 0; i < count; i++) {
    faults.push({
      type: 'fault',
      atMs: rng.int(1500, window),
      fault: makeFault(rng, pickKind(rng), options.workers),
    });
  }
  faults.sort((a, b) => a.atMs - b.atMs);
  const events: ScheduledEvent[] = [...triggers, ...faults].sort((a, b) => a.atMs - b.atMs);
  return { triggers, faults, events };
}

export function describeFault(fault: Fault): string {
  switch (fault.kind) {
    case 'worker-kill':
      return `SIGKILL worker-${fault.worker}, back after ${fault.downMs} ms`;
    case 'redis-restart':
      return `${fault.signal} redis, back after ${fault.downMs} ms`;
    case 'serve-kill':
      return `SIGKILL serve, back after ${fault.downMs} ms`;
    case 'github-502':
      return `502 on the next ${fault.times} × ${fault.target.name}`;
    case 'github-403-retry-after':
      return `403 Retry-After: ${fault.retryAfterS} on the next ${fault.times} × ${fault.target.name}`;
    case 'github-timeout':
      return `no answer (dropped after ${fault.delayMs} ms) on the next ${fault.times} × ${fault.target.name}`;
    case 'github-slow':
      return `${fault.delayMs} ms delay on the next ${fault.times} × ${fault.target.name}`;
  }
}
