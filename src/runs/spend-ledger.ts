/**
 * What an installation and a requester spent on priced models (issue #36): each call's cost is
 * added to its installation's UTC day and month and to its requester's UTC day, and the budget
 * decision (`budget.ts`) reads the current figures. Amounts are kept as integer micro-dollars so
 * that many small additions do not drift. The app's ledger is in Redis
 * (`redis-spend-ledger.ts`); `memory-spend-ledger.ts` serves one process and tests.
 */

/** Whose spend: the run's installation and the person who started it (`RunJobData.sender`). */
export interface SpendScope {
  installationId: number;
  requester: string;
}

/** USD spent in the periods that contain the moment asked about. */
export interface SpendFigures {
  installationDayUsd: number;
  installationMonthUsd: number;
  requesterDayUsd: number;
}

export interface SpendLedger {
  /** Adds `usd` at `at` (epoch ms) to the three periods; answers the figures after it. */
  add(scope: SpendScope, usd: number, at: number): Promise<SpendFigures>;
  read(scope: SpendScope, at: number): Promise<SpendFigures>;
}

/** How long a period's figure is kept after the period ends (a late reader still sees it). */
export const SPEND_KEEP_AFTER_MS = 2 * 24 * 3600_000;

export const toMicros = (usd: number): number => Math.round(usd * 1e6);
export const fromMicros = (micros: number): number => micros / 1e6;

/** A requester's login as a key: GitHub logins are case-blind. */
export const requesterKey = (login: string): string => login.toLowerCase();
