/**
 * What a setup command tried to reach, summed by host: shown in the status comment and the PR
 * ("blocked: evil.example:443, not on the allowlist ×3"). Bounded, because the command decides
 * how many distinct hosts it asks for.
 */
export interface EgressReport {
  blocked: { host: string; port: number; reason: string; count: number }[];
  allowed: { host: string; port: number; count: number; bytes: number }[];
  /** Distinct host/port/reason entries not kept because the report was full. */
  omitted: number;
}

export interface EgressRecorder {
  blocked(host: string, port: number, reason: string): void;
  /** One allowed connection or request; bytes both ways, recorded when it ends. */
  allowed(host: string, port: number, bytes: number): void;
  report(): EgressReport;
}

export function createEgressRecorder(maxEntries = 200): EgressRecorder {
  const blocked = new Map<string, EgressReport['blocked'][number]>();
  const allowed = new Map<string, EgressReport['allowed'][number]>();
  let omitted = 0;
  const full = () => blocked.size + allowed.size >= maxEntries;
  return {
    blocked(host, port, reason) {
      const key = JSON.stringify([host, port, reason]);
      const entry = blocked.get(key);
      if (entry) entry.count += 1;
      else if (full()) omitted += 1;
      else blocked.set(key, { host, port, reason, count: 1 });
    },
    allowed(host, port, bytes) {
      const key = JSON.stringify([host, port]);
      const entry = allowed.get(key);
      if (entry) {
        entry.count += 1;
        entry.bytes += bytes;
      } else if (full()) omitted += 1;
      else allowed.set(key, { host, port, count: 1, bytes });
    },
    report() {
      return {
        blocked: [...blocked.values()].map((e) => ({ ...e })),
        allowed: [...allowed.values()].map((e) => ({ ...e })),
        omitted,
      };
    },
  };
}
