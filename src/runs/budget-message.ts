/**
 * The sentence a budget parking shows in the status comment (issue #36), e.g.
 * `paused at $1.94 of $2.00 after plan; `/autofix continue` allows up to $2.00 more`. For an
 * installation's or a requester's cap it says which cap and when it resets: `/autofix continue`
 * then works once there is room again.
 */
import type { BudgetCaps } from './budget-caps.js';
import type { BudgetCapHit } from './run-record.js';
import { spendPeriodsAt } from './spend-periods.js';

export interface PauseContext {
  /** Where the run stands: `after plan` (before a stage), `during code` (a call refused). */
  place: string;
  caps: BudgetCaps;
  /** The repository's command (`config.command`). */
  command: string;
  /** Epoch ms now, for when a period's cap resets. */
  now: number;
  /** The requester's login, named for a requester cap. */
  requester?: string;
}

/** USD with 2 decimals; below a cent, two significant digits (`$0.0042`). */
export function formatUsd(usd: number): string {
  if (usd === 0 || Math.abs(usd) >= 0.01) return `$${usd.toFixed(2)}`;
  const digits = Math.min(8, Math.ceil(-Math.log10(Math.abs(usd))) + 1);
  return `$${usd.toFixed(digits)}`;
}

const tokens = (n: number): string => Math.round(n).toLocaleString('en-US');

/** `3 h 12 min`, `45 min`, `1 min` (never 0). */
function duration(ms: number): string {
  const minutes = Math.max(1, Math.ceil(ms / 60_000));
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  if (h === 0) return `${m} min`;
  return m === 0 ? `${h} h` : `${h} h ${m} min`;
}

/** When a period cap resets, in words. */
function resetOf(scope: BudgetCapHit['scope'], now: number): string {
  const periods = spendPeriodsAt(now);
  if (scope === 'installation-month')
    return `it resets on ${new Date(periods.monthEndsAt).toISOString().slice(0, 10)} at 00:00 UTC`;
  return `it resets at 00:00 UTC (in ${duration(periods.dayEndsAt - now)})`;
}

function capName(hit: BudgetCapHit, ctx: PauseContext): string {
  if (hit.scope === 'installation-day') return "the installation's daily budget";
  if (hit.scope === 'installation-month') return "the installation's monthly budget";
  return ctx.requester ? `@${ctx.requester}'s daily budget` : "the requester's daily budget";
}

/**
 * The sentence of a parking at `hit`. After a run cap, `/autofix continue` grants the run cap once
 * more (`anotherCap`, run-transitions.ts): that is the amount it names.
 */
export function budgetPauseMessage(hit: BudgetCapHit, ctx: PauseContext): string {
  const proceed = `\`${ctx.command} continue\``;
  if (hit.scope === 'run')
    return `paused at ${formatUsd(hit.spent)} of ${formatUsd(hit.limit)} ${ctx.place}; ${proceed} allows up to ${formatUsd(ctx.caps.runUsd ?? hit.limit)} more`;
  if (hit.scope === 'run-tokens')
    return `paused at ${tokens(hit.spent)} of ${tokens(hit.limit)} tokens ${ctx.place} (\`token_budget\`: the cap of models without a price, and of every model when no money cap is set); ${proceed} allows up to ${tokens(ctx.caps.runTokens)} more tokens`;
  return `paused at ${formatUsd(hit.spent)} of ${capName(hit, ctx)} of ${formatUsd(hit.limit)} ${ctx.place}; ${resetOf(hit.scope, ctx.now)}, and ${proceed} resumes the run once there is room`;
}
