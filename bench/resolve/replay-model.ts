/**
 * `--replay`: a scripted model that answers every stage of a run with the task's upstream fix, to
 * prove the harness end to end without an endpoint. It tells the stage from the request (the
 * agent's system prompt, as `autofix demo` does; tools in the request for the tool loop) and
 * answers in that agent's output format (agents/*.md):
 * - triage: a LOW-risk `fix` of the files the fix changes; planner: those files, nothing more;
 * - code, one-shot: the fix's diff of the one file asked for, in the udiff format;
 * - code, tools: `propose_edit` with the whole diff, then `finish`;
 * - code fixer: the whole diff again; pull-request writer: a summary;
 * - reproducer: a test that passes on the base (so it is refused and the run goes on without);
 * - the tool-support probe of `code_strategy: auto`: a call of the tool it offers.
 */
import { agentOf } from '../../src/demo/demo-llm.js';
import type { RecordedRequest, StaticReply } from '../../fakes/llm/index.js';
import type { ResolveTask } from './tasks.js';

interface FilePatch {
  path: string;
  operation: 'CREATE' | 'MODIFY' | 'DELETE';
  /** From the `---` line on: what the udiff format asks for. */
  diff: string;
}

/** The fix split per file (git's `diff --git` sections, their `index`/mode lines dropped). */
export function splitPatch(patch: string): FilePatch[] {
  const sections = patch.split(/^(?=diff --git )/m).filter((s) => s.startsWith('diff --git '));
  return sections.map((section) => {
    const lines = section.split('\n');
    const from = lines.findIndex((l) => l.startsWith('--- '));
    const minus = lines[from] ?? '';
    const plus = lines[from + 1] ?? '';
    const created = minus === '--- /dev/null';
    const deleted = plus === '+++ /dev/null';
    const path = (deleted ? minus.slice(6) : plus.slice(6)).trim();
    return {
      path,
      operation: created ? 'CREATE' : deleted ? 'DELETE' : 'MODIFY',
      diff: lines.slice(from).join('\n'),
    };
  });
}

const json = (value: unknown): StaticReply => ({ content: JSON.stringify(value) });

function userText(request: RecordedRequest): string {
  return request.body.messages
    .filter((m) => m.role === 'user')
    .map((m) => m.content)
    .join('\n');
}

/** The tool loop's next call: the whole fix once, then `finish`. */
function toolTurn(request: RecordedRequest, patch: string): StaticReply {
  const proposed = request.body.messages.some((m) =>
    m.tool_calls?.some((c) => c.function.name === 'propose_edit'),
  );
  return proposed
    ? {
        content: '',
        toolCalls: [{ name: 'finish', arguments: { summary: 'Applied the upstream fix.' } }],
      }
    : { content: '', toolCalls: [{ name: 'propose_edit', arguments: { edit: patch } }] };
}

/** The one-shot code agent asks for one file (`Path: \`…\`` under "The file to change"). */
function oneFile(request: RecordedRequest, files: FilePatch[], patch: string): StaticReply {
  const asked = [...userText(request).matchAll(/^Path: `([^`]+)`$/gm)].at(-1)?.[1];
  const file = files.find((f) => f.path === asked);
  return { content: file ? file.diff : patch };
}

/** A test that passes on the base commit, so the reproduction is refused and the run goes on. */
function passingTest(request: RecordedRequest): StaticReply {
  const runners = /## Test runners[^\n]*\n\n([^\n]+)/.exec(userText(request))?.[1] ?? 'PATH';
  const path = 'test/autofix-replay.test.js';
  return json({
    path,
    content: "test('replay', () => {\n  expect(1).toBe(1)\n})\n",
    command: runners.replace(/^- /, '').replace('PATH', path),
    test_name: 'replay',
  });
}

/** The scripted answer to one request for `task` (undefined: no task is running). */
export function replayAnswer(request: RecordedRequest, task: ResolveTask | undefined): StaticReply {
  if (!task) return { status: 500, body: { error: { message: 'replay: no task is running' } } };
  const files = splitPatch(task.fix_patch);
  const paths = files.map((f) => f.path);
  const tools = Array.isArray(request.body.tools) ? (request.body.tools as unknown[]) : [];
  const agent = agentOf(request);
  if (!agent && tools.length > 0) {
    // The tool-support probe: call the one tool offered.
    const offered = (tools[0] as { function?: { name?: string } }).function?.name ?? 'ready';
    return { content: '', toolCalls: [{ name: offered, arguments: {} }] };
  }
  switch (agent) {
    case 'triage':
      return json({
        risk: 'LOW',
        classification: 'fix',
        affected_files: paths,
        summary: `Apply the upstream fix to ${paths.join(', ')}.`,
      });
    case 'planner':
      return json({
        branch_name: `fix/${task.number}-upstream-fix`,
        commit_type: 'fix',
        scope: 'replay',
        commit_subject: 'apply the upstream fix',
        plan_steps: [{ id: '1', description: 'Apply the upstream fix.' }],
        file_changes: files.map((f) => ({ path: f.path, operation: f.operation })),
        validation_commands: [],
      });
    case 'reproducer':
      return passingTest(request);
    case 'code-agent':
      return tools.length > 0
        ? toolTurn(request, task.fix_patch)
        : oneFile(request, files, task.fix_patch);
    case 'code-fixer':
      return { content: task.fix_patch };
    case 'pr-generator':
      return json({ summary: `The upstream fix of ${task.id}, replayed.` });
    default:
      return { status: 400, body: { error: { message: 'replay: unknown agent' } } };
  }
}
