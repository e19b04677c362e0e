import { createHash } from 'node:crypto';

/** Canonical JSON (sorted keys) so the same inputs always hash the same. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * Deterministic run id from the run's inputs (no random ids): the same issue on the same
 * baseline with the same settings gets the same id, so a retried job finds its own artifacts.
 */
export function runIdFor(inputs: Record<string, unknown>, prefix = 'run'): string {
  return `${prefix}-${createHash('sha256').update(canonical(inputs)).digest('hex').slice(0, 16)}`;
}
