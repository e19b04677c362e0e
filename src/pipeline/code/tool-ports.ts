/**
 * What the tools' edits and test runs do in the code stage: `propose_edit` is the edit engine on
 * the run's worktree (path policy, `git apply --check`, the refusal rules), recorded as a round's
 * answer is; `run_tests` is validation's sandbox (no network, no secrets) once setup is done.
 * Both wait until setup and the baseline are done. Files an edit changes beyond the plan are
 * recorded as amendments, said in the pull request.
 */
import { quote } from 'shell-quote';
import { isAutofixError } from '../../errors.js';
import { failureNames } from '../../exec/failure-signature.js';
import type { ValidationRun } from '../../exec/index.js';
import { tailOf } from '../../text/keep-ends.js';
import type {
  EditReport,
  TestReport,
  TestRequest,
  ToolWorkspaceOptions,
} from '../../tools/tool-workspace.js';
import type { CodeSession } from './code-session.js';
import { commandOutput } from './failure-brief.js';

const OUTPUT_LINES = 80;
const OUTPUT_CHARS = 8_000;

export function toolPorts(
  session: CodeSession,
  round: { paths: string[]; prepared: () => Promise<unknown>; testRunners: readonly string[] },
): Pick<ToolWorkspaceOptions, 'proposeEdit' | 'runTests'> {
  return {
    proposeEdit: async (format, text): Promise<EditReport> => {
      // Setup and the baseline run on the base commit (and put back what they rewrote): the
      // first edit waits for them, as a one-shot answer does.
      await round.prepared();
      try {
        const applied = await session.ports.workspace.apply(format, [text]);
        const paths = await session.record(applied);
        for (const path of paths) {
          if (!round.paths.includes(path)) round.paths.push(path);
          if (!session.scope.has(path)) {
            session.scope.add(path);
            session.amendments.push({ path, why: 'changed by the code agent while exploring' });
          }
        }
        return {
          applied: true,
          files: applied.files
            .filter((f) => !f.unchanged)
            .map((f) => ({ path: f.path, created: f.created })),
          notes: applied.changeSet.notes.user,
        };
      } catch (err) {
        if (!isAutofixError(err) || err.code === 'INTERNAL') throw err;
        return { applied: false, refusal: err.message };
      }
    },
    runTests: async (request): Promise<TestReport> => {
      await round.prepared();
      const commands = commandsFor(session, request, round.testRunners);
      if (typeof commands === 'string') throw new Error(commands);
      const run = await session.ports.workspace.runCommands!(commands, session.hooks('change'));
      return reportOf(run);
    },
  };
}

function commandsFor(
  session: CodeSession,
  request: TestRequest,
  runners: readonly string[],
): string[] | string {
  if (request.command !== undefined) return [session.input.config.validate[request.command - 1]!];
  if (request.reproduction) {
    const repro = session.ports.workspace.mustPass?.() ?? [];
    return repro.length > 0 ? repro : 'this run has no reproduction test';
  }
  const runner = runners[0];
  if (!runner)
    return 'no test runner is known for single files here: run a validate command by number';
  return [runner.replace('PATH', quote([...(request.files ?? [])]))];
}

function reportOf(run: ValidationRun): TestReport {
  const last = run.results.at(-1);
  if (!last)
    return { command: '(none)', exitCode: null, passed: run.passed, failing: [], output: '' };
  const output = commandOutput(last);
  return {
    command: last.command,
    exitCode: last.exit_code,
    passed: last.exit_code === 0 && !last.timed_out,
    failing: [...(failureNames(output) ?? [])].slice(0, 30),
    output: tailOf(output, OUTPUT_LINES, OUTPUT_CHARS),
  };
}
