/** One line of a Multi-SWE-bench dataset file (`MSWE-agent/data/<language>/<repo>_dataset.jsonl`). */
export interface MsweInstance {
  org: string;
  repo: string;
  number: number;
  base: { sha: string };
  resolved_issues: { number: number; title?: string | null; body?: string | null }[];
  fix_patch: string;
  test_patch: string;
  /** `file` or `file:test name` → its outcomes per run; the keys are what the harness names. */
  f2p_tests: Record<string, unknown>;
  p2p_tests: Record<string, unknown>;
}
