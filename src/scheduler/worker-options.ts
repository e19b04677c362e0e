/** Parsing of the worker settings given on the command line or in the environment (pure). */
import { AutofixError } from '../errors.js';
import type { RateLimit } from './installation-limiter.js';
import { STAGES, type StageName } from '../runs/types.js';
import type { StageConcurrency } from './worker-pool.js';

/** `triage=4,plan=4,code=2,pr=4` (any subset) → concurrency per stage. */
export function parseConcurrency(text: string): Partial<StageConcurrency> {
  const out: Partial<StageConcurrency> = {};
  for (const part of text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [stage, value] = part.split('=').map((s) => s.trim());
    const n = Number(value);
    if (!STAGES.includes(stage as StageName) || !Number.isInteger(n) || n < 1) {
      throw new AutofixError(
        'CONFIG_INVALID',
        `concurrency: "${part}" must be <stage>=<positive integer> with stage one of ${STAGES.join(', ')}`,
      );
    }
    out[stage as StageName] = n;
  }
  return out;
}

/** `30/60s`, `100/1h`, `10/500ms`: at most N stage jobs per installation per window; `0` = off. */
export function parseRateLimit(text: string): RateLimit | undefined {
  if (text.trim() === '0' || text.trim() === 'off') return undefined;
  const match = /^(\d+)\/(\d+)(ms|s|m|h)?$/.exec(text.trim());
  const max = Number(match?.[1]);
  const amount = Number(match?.[2]);
  if (!match || max < 1 || amount < 1) {
    throw new AutofixError(
      'CONFIG_INVALID',
      `rate limit: "${text}" must look like 30/60s (jobs per installation per window), or off`,
    );
  }
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[
    (match[3] ?? 's') as 'ms' | 's' | 'm' | 'h'
  ];
  return { max, durationMs: amount * unit };
}

/** Positive number of seconds → milliseconds. */
export function parseSeconds(name: string, text: string): number {
  const n = Number(text);
  if (!Number.isFinite(n) || n <= 0) {
    throw new AutofixError(
      'CONFIG_INVALID',
      `${name}: "${text}" must be a positive number of seconds`,
    );
  }
  return Math.round(n * 1000);
}
