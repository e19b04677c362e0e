/**
 * Progress for the repository's commands: each one as its own step (`setup` apart from
 * `validate`), a heartbeat while a long one runs, and how long it took.
 */
import type { ExecResult, ValidationPhase } from '../../exec/index.js';
import type { ProgressEvent } from '../ports.js';

/** How often a running command says it is still running. */
export const HEARTBEAT_MS = 15_000;

export function commandProgress(
  progress: ((event: ProgressEvent) => void) | undefined,
  kind: 'setup' | 'baseline' | 'change',
  heartbeatMs = HEARTBEAT_MS,
): {
  onStart: (line: string, phase: ValidationPhase) => void;
  onResult: (result: ExecResult, phase: ValidationPhase) => void;
} {
  let timer: NodeJS.Timeout | undefined;
  let started = 0;
  const stageOf = (phase: ValidationPhase): ProgressEvent['stage'] =>
    phase === 'setup' ? 'setup' : 'validate';
  const what = (line: string): string =>
    kind === 'baseline' ? `\`${line}\` on the base commit (baseline)` : `\`${line}\``;
  return {
    onStart: (line, phase) => {
      if (!progress) return;
      clearInterval(timer);
      started = Date.now();
      progress({ stage: stageOf(phase), status: 'start', message: what(line) });
      timer = setInterval(() => {
        const s = Math.round((Date.now() - started) / 1000);
        progress({
          stage: stageOf(phase),
          status: 'info',
          message: `still running ${what(line)} (${s} s)`,
          heartbeat: true,
        });
      }, heartbeatMs);
      timer.unref();
    },
    onResult: (result, phase) => {
      clearInterval(timer);
      timer = undefined;
      if (!progress) return;
      const seconds = (result.duration_ms / 1000).toFixed(1);
      const ok = result.exit_code === 0 && !result.timed_out;
      progress({
        stage: stageOf(phase),
        status: ok ? 'done' : 'info',
        message: ok
          ? `${what(result.command)} passed in ${seconds} s`
          : `${what(result.command)} ${result.timed_out ? 'timed out' : `exited with ${result.exit_code ?? 'no exit code'}`} after ${seconds} s`,
      });
    },
  };
}
