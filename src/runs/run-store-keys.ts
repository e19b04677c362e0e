/** Names shared by the run stores. */

/** An issue or PR a run talks on: `owner/repo#n` (repository names compared case-blind). */
export function parkedOnKey(repoFullName: string, conversation: number): string {
  return `${repoFullName.toLowerCase()}#${conversation}`;
}

/** How long a run's record is kept after its last write (a parked run is kept while parked). */
export const RUN_RECORD_TTL_MS = 30 * 24 * 3600_000;
