/**
 * Each validation run's whole log as an artifact (the report names it; it quotes only the end):
 * `setup-build.txt`, `baseline-build.txt`, and `query-N-build.txt` for the change's runs.
 */
import { join, relative } from 'node:path';
import type { RunLog } from '../artifacts/run-log.js';
import type { ExecResult } from '../exec/index.js';
import type { CodePorts } from './code/run-code-agent.js';

export function formatCommandLog(r: ExecResult): string {
  return `$ ${r.command}\nexit code: ${r.exit_code ?? 'none'}${r.timed_out ? ' (timed out)' : ''} · ${r.duration_ms} ms\n--- stdout ---\n${r.stdout}\n--- stderr ---\n${r.stderr}`;
}

/**
 * `index()` numbers the change's logs (the CLI: the LLM query the run answers); names are shown
 * relative to `shownFrom` when given (the app: the worker's workdir, not its absolute layout).
 */
export function validationLogWriter(
  runLog: RunLog,
  index: () => number,
  shownFrom?: string,
): NonNullable<CodePorts['onValidation']> {
  const shown = (path: string): string => (shownFrom ? relative(shownFrom, path) : path);
  return (run, kind) => {
    const text = run.results.map(formatCommandLog).join('\n\n');
    if (kind !== 'change') return shown(runLog.text(`${kind}-build.txt`, text));
    const n = Math.max(index(), 1);
    runLog.build(n, text);
    return shown(join(runLog.dir, `query-${n}-build.txt`));
  };
}
