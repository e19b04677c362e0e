/**
 * `code_strategy: tools` through `autofix run`'s runner: real git, the real tools over the real
 * worktree, `run_tests` and validation in the real sandbox, the scripted model calling tools over
 * HTTP. The model finds the file the plan did not name, reads it, edits it through the engine,
 * runs the tests, finishes; a failing validation comes back into the same conversation; `auto`
 * asks the endpoint once whether it answers tool calls; a hostile repository's links give the
 * model nothing.
 */
import { silentLogger } from '../../../src/logger.js';
import { forgetToolSupport } from '../../../src/llm/tool-support.js';
import { runLocal, type LocalRunReport } from '../../../src/hosts/local/run-local.js';
import type { FakeLlmServer } from '../../helpers/fake-llm-server.js';
import { createHostileWorld, leakedCanaries } from '../../helpers/hostile-entries.js';
import {
  startLocalRunEnv,
  stopLocalRunEnv,
  type LocalRunEnv,
} from '../../helpers/local-run-env.js';
import {
  createSampleRepo,
  FIX_DIFF,
  PLAN,
  PR_SUMMARY,
  TRIAGE,
  type SampleRepo,
} from '../../helpers/sample-repo.js';

const API_KEY = 'sk-test-tool-strategy-0123456789ab';
const ISSUE = '# add() returns the wrong result\n\nadd(2, 3) gives -1 instead of 5.';
const json = (v: unknown): string => JSON.stringify(v);
const call = (name: string, args: unknown) => ({
  content: '',
  toolCalls: [{ name, arguments: args }],
});
/** The plan names a file that is not where the bug is: the loop must look further. */
const WRONG_PLAN = { ...PLAN, file_changes: [{ path: 'README.md', operation: 'MODIFY' }] };
/** The fix, and a second hunk that breaks double(): validation fails on the change. */
const BREAKS_DOUBLE = `${FIX_DIFF}@@ -5,3 +5,3 @@\n export function double(x) {\n-  return x * 2;\n+  return x * 3;\n }\n`;
const UNDO_DOUBLE = [
  '--- a/src/math.js',
  '+++ b/src/math.js',
  '@@ -5,3 +5,3 @@',
  ' export function double(x) {',
  '-  return x * 3;',
  '+  return x * 2;',
  ' }',
  '',
].join('\n');

let env: LocalRunEnv;
let llm: FakeLlmServer;
let repo: SampleRepo;

beforeEach(async () => {
  env = await startLocalRunEnv(API_KEY);
  llm = env.llm;
  forgetToolSupport();
});
afterEach(async () => {
  await stopLocalRunEnv(env);
  repo?.cleanup();
});

const run = (config: string, files: Record<string, string> = {}): Promise<LocalRunReport> => {
  repo = createSampleRepo({ config, files });
  return runLocal({ repo: repo.dir, issueText: ISSUE, number: 7 }, env.settings, {
    log: silentLogger,
  });
};
const TOOLS_CONFIG = 'reproduce: off\ncode_strategy: tools\nvalidate:\n  - node test.js\n';
const toolNames = () =>
  llm
    .chatRequests()
    .map((r) =>
      (r.body.tools as { function: { name: string } }[] | undefined)?.map((t) => t.function.name),
    );

describe('code_strategy: tools', () => {
  it('finds the file the plan missed, edits it through the engine, runs the tests, and the change lands', async () => {
    llm.enqueue(
      json(TRIAGE),
      json(WRONG_PLAN),
      call('find_definition', { symbol: 'add' }),
      call('read_file', { path: 'src/math.js' }),
      call('propose_edit', { edit: FIX_DIFF }),
      call('run_tests', { command: 1 }),
      call('finish', { summary: 'add() returns the sum.' }),
      json(PR_SUMMARY),
    );
    const report = await run(TOOLS_CONFIG);
    expect(report.failure).toBeUndefined();
    expect(report.outcome).toBe('success');
    const code = report.result!.code!;
    expect(code.changes).toEqual([{ path: 'src/math.js', operation: 'modified' }]);
    expect(code.amendments).toEqual([
      { path: 'src/math.js', why: 'changed by the code agent while exploring' },
    ]);
    expect(code.exploration!.steps.map((s) => s.summary)).toEqual([
      'definition of add: 1 found',
      'read src/math.js:1-7',
      'edited src/math.js',
      'ran `node test.js`: passed',
      'finished',
    ]);
    expect(code.exploration!.ends).toEqual(['the model said the change is complete']);
    // The code requests offered the tools; the other stages did not.
    expect(toolNames()[2]).toContain('propose_edit');
    // The opening message names the files the ranking put after those it shows.
    const opening = String(llm.chatRequests()[2]!.body.messages.at(-1)!.content);
    expect(opening).toContain('## Files the ranking suggests next');
    expect(toolNames()[0]).toBeUndefined();
    expect(report.result!.pr!.body).toContain('What the bot looked at');
    expect(report.result!.pr!.body).toContain('edited src/math.js');
  });

  it('brings a failing validation back into the same conversation, and the repair uses the tools', async () => {
    llm.enqueue(
      json(TRIAGE),
      json(PLAN),
      call('propose_edit', { edit: BREAKS_DOUBLE }),
      call('finish', { summary: 'fixed' }),
      call('propose_edit', { edit: UNDO_DOUBLE }),
      call('finish', { summary: 'fixed double again' }),
      json(PR_SUMMARY),
    );
    const report = await run(TOOLS_CONFIG);
    expect(report.failure).toBeUndefined();
    expect(report.outcome).toBe('success');
    expect(report.result!.code!.repairs).toBe(1);
    const repair = llm.chatRequests()[4]!.body.messages;
    // The same conversation: the first round's calls, then the failure.
    expect(repair.some((m) => m.tool_call_id !== undefined)).toBe(true);
    expect(repair.at(-1)!.content).toContain('node test.js');
    expect(repair.at(-1)!.content).toContain('FAIL double');
  });

  it('answers a loop that ends without an edit as a refused round, and the run says so', async () => {
    llm.enqueue(json(TRIAGE), json(PLAN), 'I would change add.', 'Still prose.');
    const report = await run(
      'reproduce: off\ncode_strategy: tools\nmax_repair_attempts: 0\nvalidate:\n  - node test.js\n',
    );
    expect(report.outcome).toBe('failed');
    expect(report.failure!.message).toContain('without an edit');
  });

  it('gives the model nothing of what hostile links point at', async () => {
    const world = createHostileWorld();
    try {
      repo = createSampleRepo({ config: TOOLS_CONFIG });
      world.plant(repo.dir, 'src/env.js', 'proc-self-environ');
      world.plant(repo.dir, 'docs/secret.md', 'outside-file');
      repo.git('add', '-A');
      repo.commit('links');
      llm.enqueue(
        json(TRIAGE),
        json(PLAN),
        call('read_file', { path: 'src/env.js' }),
        call('read_file', { path: 'docs/secret.md' }),
        call('search', { pattern: 'CANARY' }),
        call('read_file', { path: '../../../../../../proc/self/environ' }),
        call('propose_edit', { edit: FIX_DIFF }),
        call('finish', { summary: 'x' }),
        json(PR_SUMMARY),
      );
      const report = await runLocal({ repo: repo.dir, issueText: ISSUE, number: 7 }, env.settings, {
        log: silentLogger,
      });
      expect(report.failure).toBeUndefined();
      expect(report.outcome).toBe('success');
      const everything = llm
        .chatRequests()
        .map((r) => r.rawBody)
        .join('\n');
      expect(leakedCanaries(everything, world)).toEqual([]);
      expect(report.result!.code!.exploration!.steps.slice(0, 4).map((s) => s.error)).toEqual([
        true,
        true,
        false,
        true,
      ]);
    } finally {
      world.cleanup();
    }
  });
});

describe('code_strategy: auto', () => {
  it('asks the endpoint once whether it answers tool calls, then works with tools', async () => {
    llm.enqueue(
      json(TRIAGE),
      json(PLAN),
      call('ready', {}),
      call('propose_edit', { edit: FIX_DIFF }),
      call('finish', { summary: 'x' }),
      json(PR_SUMMARY),
    );
    const report = await run('reproduce: off\ncode_strategy: auto\nvalidate:\n  - node test.js\n');
    expect(report.failure).toBeUndefined();
    expect(report.outcome).toBe('success');
    expect(report.result!.code!.exploration).toBeDefined();
    expect(llm.chatRequests()[2]!.body.tool_choice).toBe('required');
  });

  it('falls back to one-shot, byte for byte, for an endpoint that answers in text', async () => {
    llm.enqueue(json(TRIAGE), json(PLAN), 'ready', FIX_DIFF, json(PR_SUMMARY));
    const report = await run('reproduce: off\ncode_strategy: auto\nvalidate:\n  - node test.js\n');
    expect(report.failure).toBeUndefined();
    expect(report.outcome).toBe('success');
    expect(report.result!.code!.exploration).toBeUndefined();
    expect(llm.chatRequests()[3]!.body).not.toHaveProperty('tools');
    expect(llm.chatRequests()[3]!.body.messages[0]!.content).toContain('You are the code agent');
  });
});
