/**
 * The one table of the CLI's exit codes. Every place where `autofix` ends a process takes its code
 * from here; `autofix --help` prints the table and README.md's "Exit codes" table repeats it
 * (test/unit/bin/exit-codes.test.ts keeps the two the same). Light: `--help` loads it.
 */
import { CommanderError } from 'commander';
import { isAutofixError } from '../errors.js';

export const EXIT = {
  /** The command did what was asked. */
  OK: 0,
  /** The work was refused or failed, or the sandbox does not work here. */
  FAILED: 1,
  /** The command line or the environment is wrong; nothing was tried. */
  USAGE: 2,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** One row per code, as `--help` and the README show it. */
export const EXIT_CODE_TABLE: readonly { code: ExitCode; meaning: string }[] = [
  {
    code: EXIT.OK,
    meaning:
      'success: the change was applied or committed, the build passes, the work order passed; ' +
      '--help and --version; serve and worker stopped by SIGTERM/SIGINT after their active jobs',
  },
  {
    code: EXIT.FAILED,
    meaning:
      'refused or failed, nothing half-written (run failed and rolled back, patch refused, ' +
      'build still failing, work order failed); the sandbox not working; ' +
      'a shutdown that had to interrupt active jobs; an unexpected error',
  },
  {
    code: EXIT.USAGE,
    meaning:
      'usage or configuration error, found before any work: unknown command or option, bad ' +
      'option value, unreadable input file, repository not fit for the command, missing or ' +
      'invalid environment variable (the message names it), a private key that does not ' +
      'decode as an RSA key, no usable Redis at REDIS_URL, a PORT already in use',
  },
];

/** `Exit codes:` block appended to `autofix --help`, wrapped like commander's own help. */
export function exitCodeHelp(width = 80): string {
  const rows = EXIT_CODE_TABLE.map(({ code, meaning }) =>
    wrap(meaning, width - 5)
      .map((line, i) => (i === 0 ? `  ${code}  ${line}` : `     ${line}`))
      .join('\n'),
  );
  return `\nExit codes:\n${rows.join('\n')}\n`;
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, line];
}

/**
 * The exit code for an error that ended a command: commander's own (`--help`, `--version`: 0;
 * anything else it reports is a usage error), a configuration error (error code
 * `CONFIG_INVALID`), or a failure.
 */
export function exitCodeFor(err: unknown): ExitCode {
  if (err instanceof CommanderError) return err.exitCode === 0 ? EXIT.OK : EXIT.USAGE;
  if (isAutofixError(err) && err.code === 'CONFIG_INVALID') return EXIT.USAGE;
  return EXIT.FAILED;
}
