/** The UTC day and month a spend falls in, and when each ends (the caps reset then). */

export interface SpendPeriods {
  /** `2026-11-28` */
  day: string;
  /** `2026-11` */
  month: string;
  /** Epoch ms of the next UTC midnight. */
  dayEndsAt: number;
  /** Epoch ms of the first UTC midnight of the next month. */
  monthEndsAt: number;
}

export function spendPeriodsAt(at: number): SpendPeriods {
  const d = new Date(at);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth();
  const iso = d.toISOString();
  return {
    day: iso.slice(0, 10),
    month: iso.slice(0, 7),
    dayEndsAt: Date.UTC(y, m, d.getUTCDate() + 1),
    monthEndsAt: Date.UTC(y, m + 1, 1),
  };
}
