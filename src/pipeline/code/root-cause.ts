/**
 * What a failed code stage reports first (pure): the command that failed, its exit code and the
 * end of its output (where test runners and compilers print the error), then what the repair
 * rounds did after it, then the artifact that holds the whole log. The CLI prints this text; the
 * failure comment renders the same facts from the error's `details.root_cause`.
 */
import { AutofixError } from '../../errors.js';
import type { ValidationPhase, ValidationRun } from '../../exec/index.js';
import { blockedWarning } from '../../exec/run-validation.js';
import { headAndTail } from '../../text/keep-ends.js';
import { commandOutput, type FailureBrief } from './failure-brief.js';

export interface RootCause {
  phase: ValidationPhase;
  command: string;
  exit_code: number | null;
  timed_out: boolean;
  /** Tests or errors that fail with the change and did not on the base commit. */
  new_failures: string[] | null;
  /** The end of the output: ANSI stripped and redacted by the runner, bounded. */
  tail: string;
  /** The artifact that holds the whole log, when the run keeps one. */
  log?: string;
  /** The round it failed in: 0 is the first answer. */
  round: number;
  network: boolean;
}

/** Lines kept from the start and the end of the failing command's output, and a bound. */
export const ROOT_CAUSE_HEAD_LINES = 6;
export const ROOT_CAUSE_TAIL_LINES = 30;
export const ROOT_CAUSE_CHARS = 4_000;

function excerpt(output: string): string {
  return headAndTail(output, ROOT_CAUSE_HEAD_LINES, ROOT_CAUSE_TAIL_LINES, ROOT_CAUSE_CHARS);
}

/** The first line of a message, and the next one when the first only announces it (`…:`). */
export function firstLine(text: string): string {
  const lines = text.split('\n').map((l) => l.trim());
  const first = lines[0] ?? '';
  const next = lines.slice(1).find((l) => l !== '');
  return first.endsWith(':') && next ? `${first} ${next}` : first;
}

export function rootCauseOf(brief: FailureBrief, round: number): RootCause {
  return {
    phase: brief.phase ?? 'validate',
    command: brief.command ?? '(unknown command)',
    exit_code: brief.exit_code,
    timed_out: brief.code === 'TIMEOUT',
    new_failures: brief.new_failures ?? null,
    tail: excerpt(brief.output ?? brief.excerpt),
    ...(brief.log ? { log: brief.log } : {}),
    round,
    network: brief.network ?? false,
  };
}

function how(root: Pick<RootCause, 'exit_code' | 'timed_out'>): string {
  return root.timed_out
    ? 'timed out and was killed'
    : `failed with exit code ${root.exit_code ?? 'none'}`;
}

const NO_NETWORK =
  'Its output looks like it needed the network: `validate` commands run without any network ' +
  '(only `setup:` may reach the package registries and the hosts in `network_allow`).';

/** The code stage's failure text: root cause, output tail, what came after, the log. */
export function renderRootCause(
  root: RootCause,
  after: readonly string[],
  repairs: number,
): string {
  const when =
    repairs === 0
      ? 'with the change'
      : root.round === repairs
        ? `with the change, and still after ${repairs} repair attempt(s)`
        : root.round === 0
          ? `with the change; ${repairs} repair attempt(s) could not be used`
          : `with the change after repair ${root.round}; the later repair attempt(s) could not be used`;
  const lines = [`\`${root.command}\` ${how(root)} ${when}`];
  if (root.new_failures && root.new_failures.length > 0) {
    lines.push(
      `Failing with the change, passing on the base commit: ${root.new_failures
        .slice(0, 10)
        .join(
          ', ',
        )}${root.new_failures.length > 10 ? ` and ${root.new_failures.length - 10} more` : ''}`,
    );
  }
  if (root.network) lines.push(NO_NETWORK);
  lines.push(`Output of \`${root.command}\`:`, indent(root.tail));
  if (after.length > 0) lines.push('After that:', ...after.map((a) => `  - ${a}`));
  if (root.log) lines.push(`Full log: ${root.log}`);
  return lines.join('\n');
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((l) => `    ${l}`)
    .join('\n');
}

/** A `setup` command failed on the base commit: the configuration's fault, never the fixer's. */
export function setupFailed(run: ValidationRun, log: string | undefined): AutofixError {
  const result = run.failed?.result ?? run.results[run.results.length - 1]!;
  const output = commandOutput(result);
  const root: RootCause = {
    phase: 'setup',
    command: result.command,
    exit_code: result.exit_code,
    timed_out: result.timed_out,
    new_failures: null,
    tail: excerpt(output || '(no output)'),
    ...(log ? { log } : {}),
    round: 0,
    network: false,
  };
  const lines = [
    `Setup command \`${result.command}\` ${how(root)} on the base commit, before any change was tried`,
    `Output of \`${result.command}\`:`,
    indent(root.tail),
    'Nothing was sent to the model: setup runs before the change, so no change can fix it. ' +
      'Change `setup:` in `.github/autofix.yml` (for example `npm install` instead of `npm ci` ' +
      'when no lockfile is committed).',
  ];
  if (run.blocked.length > 0) lines.push(blockedWarning(run.blocked));
  if (log) lines.push(`Full log: ${log}`);
  return new AutofixError('SETUP_FAILED', lines.join('\n'), {
    details: { root_cause: root, after: [], repairs: 0 },
    recoverable: false,
  });
}
