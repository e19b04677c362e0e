/** `--help` of the compiled CLI: plain words (no internal project history) and every default. */
import { buildProgram } from '../../src/bin/program.js';
import { EXIT_CODE_TABLE } from '../../src/bin/exit-codes.js';
import { ENV_VARS } from '../../src/config/env-vars.js';
import { runCli } from '../helpers/cli.js';

const COMMANDS = buildProgram().commands.map((c) => c.name());

/** The help text of one option: its line and the wrapped lines under it. */
function optionHelp(help: string, flag: string): string {
  const lines = help.split('\n');
  const start = lines.findIndex((l) => l.trimStart().startsWith(`${flag} `) || l.trim() === flag);
  if (start < 0) throw new Error(`${flag} not in help:\n${help}`);
  let end = start + 1;
  while (end < lines.length && /^\s{4,}\S/.test(lines[end]!) && !/^\s+-/.test(lines[end]!)) end++;
  return lines.slice(start, end).join(' ').replace(/\s+/g, ' ');
}

describe('autofix --help', () => {
  it('lists every command and the exit codes', async () => {
    const r = await runCli(['--help']);
    expect(r.code).toBe(0);
    for (const name of COMMANDS) expect(r.stdout).toMatch(new RegExp(`^\\s+${name}\\b`, 'm'));
    expect(r.stdout).toContain('Exit codes:');
    for (const { code } of EXIT_CODE_TABLE)
      expect(r.stdout).toMatch(new RegExp(`^  ${code}  `, 'm'));
  });

  it.each([[[]], ...COMMANDS.map((c) => [[c]])])(
    '%j --help speaks of no seeds or predecessor modes',
    async (command: string[]) => {
      const r = await runCli([...command, '--help']);
      expect(r.code).toBe(0);
      expect(r.stdout).not.toMatch(/\bseeds?\b/i);
      expect(r.stdout).not.toMatch(/predecessor/i);
    },
  );

  it.each(COMMANDS.map((c) => [c]))(
    '%s --help shows the default of every optional value',
    async (name) => {
      const command = buildProgram().commands.find((c) => c.name() === name)!;
      const r = await runCli([name, '--help']);
      expect(r.code).toBe(0);
      const optional = command.options.filter((o) => (o.required || o.optional) && !o.mandatory);
      for (const option of optional) {
        expect(optionHelp(r.stdout, option.long!)).toMatch(/default: [^)]|\(required unless/);
      }
    },
  );

  it('shows the defaults a user asked about', async () => {
    const run = (await runCli(['run', '--help'])).stdout;
    expect(optionHelp(run, '--max-attempts')).toContain('else 3');
    expect(optionHelp(run, '--number')).toContain('(default: 1)');
    const workOrder = (await runCli(['work-order', '--help'])).stdout;
    expect(optionHelp(workOrder, '--timeout-seconds')).toContain('default: 600');
    expect(optionHelp(workOrder, '--llm-model')).toMatch(/default: AUTOFIX_MODEL, else \S+/);
    const codeCommit = (await runCli(['code-commit', '--help'])).stdout;
    expect(optionHelp(codeCommit, '--max-rounds')).toContain('(default: 3)');
  });

  it.each([['run'], ['serve'], ['worker']] as const)(
    '%s --help lists the environment it reads, and only that',
    async (name) => {
      const help = (await runCli([name, '--help'])).stdout;
      const section = help.slice(help.indexOf('\nEnvironment'));
      expect(section).toMatch(/^\nEnvironment.*:\n/);
      const shown = [...section.matchAll(/^ {2}([A-Z][A-Z0-9_]+) /gm)].map((m) => m[1]);
      expect(shown).toEqual(ENV_VARS.filter((v) => v.readBy.includes(name)).map((v) => v.name));
    },
  );

  it('run --help names the LLM variables and no App credential', async () => {
    const help = (await runCli(['run', '--help'])).stdout;
    expect(help).toMatch(/^ {2}OPENAI_API_KEY +\(required\) /m);
    expect(help).toMatch(/^ {2}OPENAI_BASE_URL /m);
    expect(help).not.toMatch(/APP_ID|WEBHOOK_SECRET|AUTOFIX_SANDBOX/);
  });
});
