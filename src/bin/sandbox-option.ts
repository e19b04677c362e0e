import { Option } from 'commander';

/**
 * `--sandbox none` is the only way to run repository code unsandboxed from the CLI: it must be
 * typed by the user (`AUTOFIX_SANDBOX` in the environment does not count for local runs).
 */
export function sandboxOption(): Option {
  return new Option(
    '--sandbox <mode>',
    'how repository commands run: bwrap (bubblewrap sandbox) or none (no isolation; only on code you trust)',
  )
    .choices(['bwrap', 'none'])
    .default('bwrap');
}
