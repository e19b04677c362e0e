/**
 * The commands that may run a reproduction: a test runner and the new test file's path, nothing
 * else. The model's `command` must be one of these with `PATH` replaced exactly; anything else is
 * refused before it runs (it runs in the sandbox like every repository command, but an arbitrary
 * command would not show a test failing). The runners are `test-output/`'s: the judge reads
 * their output.
 */
import { quote } from 'shell-quote';
import { runnersInCommand } from '../../test-output/detect-runners.js';
import type { Runner } from '../../test-output/test-report.js';

/** `PATH` stands for the test file. Offered by what the repository has (see `runnersFor`). */
const COMMANDS = {
  'node-test': ['node --test PATH', 'node PATH'],
  jest: ['npx jest PATH'],
  vitest: ['npx vitest run PATH'],
  mocha: ['npx mocha PATH'],
  tap: ['npx tap PATH'],
  ava: ['npx ava PATH'],
  pytest: ['python -m pytest PATH', 'pytest PATH'],
} as const satisfies Partial<Record<Runner, readonly string[]>>;

type ReproductionRunner = keyof typeof COMMANDS;

/** The Node runners a repository may depend on by name, in the order they are offered. */
const NAMED = ['jest', 'vitest', 'mocha', 'tap', 'ava'] as const;

/** The runners a repository shows signs of: its package.json's dependencies, files, commands. */
export function runnersFor(signs: {
  dependencies: readonly string[];
  files: readonly string[];
  commands: readonly string[];
}): string[] {
  const inCommands = new Set(signs.commands.flatMap(runnersInCommand));
  const found = new Set<ReproductionRunner>(
    NAMED.filter((name) => signs.dependencies.includes(name) || inCommands.has(name)),
  );
  if (
    signs.files.some((f) => /\.py$/.test(f)) &&
    (inCommands.has('pytest') ||
      signs.files.some((f) => /(^|\/)(pytest\.ini|conftest\.py)$/.test(f)))
  ) {
    found.add('pytest');
  }
  // Node's own runner needs nothing installed: always offered for JavaScript repositories.
  if (signs.files.includes('package.json')) found.add('node-test');
  return [...found].flatMap((r) => [...COMMANDS[r]]);
}

/** The command for `path` if `command` is exactly one of `runners` for it, else undefined. */
export function matchRunner(
  command: string,
  path: string,
  runners: readonly string[],
): string | undefined {
  const wanted = command.trim().replace(/\s+/g, ' ');
  const quoted = quote([path]);
  return runners.map((r) => r.replace('PATH', quoted)).find((candidate) => candidate === wanted);
}
