/**
 * Turns a command string from `.github/autofix.yml` into an argv with shell-word rules (quotes,
 * backslash escapes), without a shell: pipes, redirections, `&&`, `;`, `$VAR` and `$(…)` are
 * refused rather than passed on as literal words that would silently do something else. A
 * repository that needs a shell says so itself: `sh -c 'npm ci && npm run build'` — the
 * operators are then inside one quoted word, which is the script `sh` receives.
 */
import { parse } from 'shell-quote';
import { AutofixError } from '../errors.js';

/** Marks a `$VAR` reference in shell-quote's output (it copies the object, so no Symbol key). */
const VARIABLE = '__autofix_variable__';

interface VariableRef {
  [VARIABLE]: string;
}

function refuse(command: string, why: string): never {
  throw new AutofixError(
    'CONFIG_INVALID',
    `command \`${command}\` ${why}; commands run without a shell, write \`sh -c '…'\` if the ` +
      'repository needs one',
    { details: { command }, recoverable: false },
  );
}

/** Finds a quote that is never closed (shell-quote silently accepts them). */
function hasUnclosedQuote(command: string): boolean {
  let quote: string | null = null;
  for (let i = 0; i < command.length; i++) {
    const c = command[i];
    if (quote === null) {
      if (c === '\\') i++;
      else if (c === '"' || c === "'") quote = c;
    } else if (c === quote) quote = null;
    else if (quote === '"' && c === '\\') i++;
  }
  return quote !== null;
}

export function splitCommand(command: string): string[] {
  if (hasUnclosedQuote(command)) refuse(command, 'has an unclosed quote');
  const entries = parse(command, (name: string) => ({ [VARIABLE]: name }) as never);
  const argv: string[] = [];
  for (const entry of entries as unknown[]) {
    if (typeof entry === 'string') {
      argv.push(entry);
      continue;
    }
    const token = entry as Partial<VariableRef> & {
      op?: string;
      pattern?: string;
      comment?: string;
    };
    if (token.comment !== undefined) break; // `# …` ends the command, as in a shell
    if (token[VARIABLE] !== undefined) refuse(command, `expands \`$${token[VARIABLE]}\``);
    // No glob expansion without a shell: the tool gets the pattern itself (eslint, jest do globbing).
    if (token.op === 'glob' && token.pattern !== undefined) {
      argv.push(token.pattern);
      continue;
    }
    refuse(command, `uses the shell operator \`${token.op ?? '?'}\``);
  }
  // shell-quote splits `a"$B"c` into several entries; a variable anywhere was refused above.
  if (argv.length === 0) refuse(command, 'is empty');
  if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(argv[0] ?? ''))
    refuse(
      command,
      `starts with an environment assignment; to set it for the command, write \`env ${formatCommand(argv)}\``,
    );
  return argv;
}

/** Renders an argv back into one line for logs and `CommandResult.command`. */
export function formatCommand(argv: readonly string[]): string {
  return argv
    .map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`))
    .join(' ');
}
