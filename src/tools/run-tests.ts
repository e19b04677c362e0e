/**
 * `run_tests`: one of the repository's `validate` commands, the reproduction, or the tests in a
 * few files the model names (run by a runner the repository has) — in validation's sandbox, no
 * network, no secrets. Answers a structured report: command, exit code, failing tests, output.
 */
import { z } from 'zod';
import { refused, type Tool } from './tool.js';

const schema = z
  .object({
    command: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe('Run the repository validate command with this number (see the list).'),
    reproduction: z.boolean().optional().describe('Run the test that reproduces the issue.'),
    files: z
      .array(z.string().min(1))
      .max(10)
      .optional()
      .describe('Run only the tests in these test files.'),
  })
  .strict();

export const runTestsTool: Tool<z.infer<typeof schema>> = {
  name: 'run_tests',
  description:
    'Run tests in the sandbox: a validate command by number, the reproduction, or the tests in ' +
    'given test files. Answers the exit code, the failing tests and the end of the output.',
  schema,
  async run(args, ws) {
    const commands = ws.testCommands();
    if (!ws.runTests)
      return refused('running tests is not available in this run', 'run_tests: unavailable');
    const asked = [
      args.command !== undefined,
      args.reproduction === true,
      (args.files?.length ?? 0) > 0,
    ];
    if (asked.filter(Boolean).length !== 1)
      return refused(
        `give exactly one of: command (1-${commands.length}), reproduction: true, or files`,
        'run_tests: refused',
      );
    if (args.command !== undefined && args.command > commands.length)
      return refused(
        `there are ${commands.length} validate commands: ${commands.map((c, i) => `${i + 1}. ${c}`).join('; ')}`,
        'run_tests: refused',
      );
    const report = await ws.runTests({
      ...(args.command !== undefined ? { command: args.command } : {}),
      ...(args.reproduction ? { reproduction: true } : {}),
      ...(args.files ? { files: args.files } : {}),
    });
    const failing =
      report.failing.length > 0 ? ['failing:', ...report.failing.map((f) => `- ${f}`)] : [];
    return {
      text: [
        `\`${report.command}\` ${report.passed ? 'passed' : 'failed'} (exit ${report.exitCode ?? 'none'})`,
        ...failing,
        'output (cropped):',
        report.output,
      ].join('\n'),
      summary: `ran \`${report.command}\`: ${report.passed ? 'passed' : `failed${report.failing.length ? ` (${report.failing.length} failing)` : ''}`}`,
    };
  },
};
