/**
 * Issue #33 through the real `autofix run` (scripted model over HTTP, real git and commands): an
 * answer cut off at the output limit — the server says so, or the answer itself shows it — is
 * never written; the repair round asks for the rest with a smaller scope (from the last complete
 * hunk, or the one file), and the kept part and the rest are applied together. A lazy whole-file
 * answer ("... rest unchanged") is refused and asked again.
 */
import { silentLogger } from '../../../src/logger.js';
import { runLocal, type LocalRunReport } from '../../../src/hosts/local/run-local.js';
import type { FakeLlmServer, RecordedRequest } from '../../helpers/fake-llm-server.js';
import {
  startLocalRunEnv,
  stopLocalRunEnv,
  type LocalRunEnv,
} from '../../helpers/local-run-env.js';
import {
  BUGGY_MATH,
  createSampleRepo,
  PLAN,
  PR_SUMMARY,
  TRIAGE,
  type SampleRepo,
} from '../../helpers/sample-repo.js';

const ISSUE = '# add() returns the wrong result\n\nadd(2, 3) gives -1 instead of 5.';
const FIXED = BUGGY_MATH.replace('return a - b;', 'return a + b;').replace(
  'return x * 2;',
  'return x * 2; // doubled',
);

const HEADER = '--- a/src/math.js\n+++ b/src/math.js\n';
const HUNK_ADD =
  '@@ -1,3 +1,3 @@\n export function add(a, b) {\n-  return a - b;\n+  return a + b;\n }\n';
const HUNK_DOUBLE =
  '@@ -5,3 +5,3 @@\n export function double(x) {\n-  return x * 2;\n+  return x * 2; // doubled\n }\n';

let env: LocalRunEnv;
let llm: FakeLlmServer;
let repo: SampleRepo | undefined;

beforeEach(async () => {
  env = await startLocalRunEnv('sk-test-cut-off-answers-0123456789');
  llm = env.llm;
});

afterEach(async () => {
  await stopLocalRunEnv(env);
  repo?.cleanup();
  repo = undefined;
});

const json = (v: unknown): string => JSON.stringify(v);
const run = (): Promise<LocalRunReport> =>
  runLocal({ repo: repo!.dir, issueText: ISSUE, number: 7 }, env.settings, { log: silentLogger });

const promptOf = (r: RecordedRequest | undefined): string =>
  (r?.body.messages ?? []).map((m) => m.content).join('\n');

/** The chat requests made by the code agent and the code fixer, in order. */
const codeRequests = (): RecordedRequest[] =>
  llm.chatRequests().filter((r) => /You are the code (agent|fixer)/.test(promptOf(r)));

describe('a cut-off answer in the code stage', () => {
  it('is not written when the server says finish_reason "length"; the fixer is asked for the rest after the last complete hunk', async () => {
    repo = createSampleRepo();
    llm.enqueue(
      json(TRIAGE),
      json(PLAN),
      // Both hunks look complete, but the server says the answer was cut.
      { content: `${HEADER}${HUNK_ADD}${HUNK_DOUBLE.slice(0, 60)}`, finishReason: 'length' },
      `${HEADER}${HUNK_DOUBLE}`,
      json(PR_SUMMARY),
    );
    const report = await run();

    expect(report.failure).toBeUndefined();
    const branch = report.result!.commit!.branch;
    expect(repo.git('show', `${branch}:src/math.js`)).toBe(FIXED.trimEnd());
    const [first, repair] = codeRequests();
    expect(promptOf(first)).toContain('You are the code agent');
    const asked = promptOf(repair);
    expect(asked).toContain(
      'Your previous answer was cut off at the output limit (finish_reason "length"): it stops in `src/math.js`, hunk 2',
    );
    expect(asked).toContain('Nothing from it was written.');
    expect(asked).toContain('continue from the last complete hunk');
    // The complete hunk is kept and shown; only the rest is asked for.
    expect(asked).toContain(`${HEADER}${HUNK_ADD}`.trimEnd());
    expect(asked).toContain('Send only the rest of the diff: `src/math.js` from its hunk 2 on');
    expect(report.result!.code!.repairs).toBe(1);
  });

  it('is not written when the answer itself shows the cut (a removed line whose replacement never came)', async () => {
    repo = createSampleRepo();
    llm.enqueue(
      json(TRIAGE),
      json(PLAN),
      `${HEADER}${HUNK_ADD.slice(0, HUNK_ADD.indexOf('\n+') + 1)}`,
      `${HEADER}${HUNK_ADD}${HUNK_DOUBLE}`,
      json(PR_SUMMARY),
    );
    const report = await run();

    expect(report.failure).toBeUndefined();
    expect(repo.git('show', `${report.result!.commit!.branch}:src/math.js`)).toBe(FIXED.trimEnd());
    const asked = promptOf(codeRequests()[1]);
    expect(asked).toContain('src/math.js: hunk 1 (`@@ -1,3 +1,3 @@`) looks cut off');
    expect(asked).toContain('Send only the rest of the diff: `src/math.js` from its hunk 1 on');
  });

  it('keeps asking for the rest while answers are cut, then gives up with the cut named', async () => {
    repo = createSampleRepo({
      config: 'reproduce: off\nmax_repair_attempts: 1\nvalidate:\n  - node test.js\n',
    });
    llm.enqueue(json(TRIAGE), json(PLAN));
    llm.enqueue(
      { content: `${HEADER}${HUNK_ADD.slice(0, 50)}`, finishReason: 'length' },
      { content: `${HEADER}${HUNK_ADD.slice(0, 50)}`, finishReason: 'length' },
    );
    const report = await run();

    expect(report.failure?.code).toBe('LLM_OUTPUT_INVALID');
    expect(report.failure?.message).toContain(
      'cut off at the output limit (finish_reason "length")',
    );
    expect(repo.git('branch', '--list', 'autofix/*')).toBe('');
  });
});

describe('a lazy whole-file answer in the code stage', () => {
  it('is refused with the lines it would delete, and the complete file asked for', async () => {
    repo = createSampleRepo({
      config: 'reproduce: off\nedit_format: fenced-files\nvalidate:\n  - node test.js\n',
    });
    const lazy = `export function add(a, b) {\n  return a + b;\n}\n\n// ... rest of the file unchanged ...\n`;
    llm.enqueue(
      json(TRIAGE),
      json(PLAN),
      `^^^src/math.js\n${lazy}^^^end\n`,
      `^^^src/math.js\n${FIXED}^^^end\n`,
      json(PR_SUMMARY),
    );
    const report = await run();

    expect(report.failure).toBeUndefined();
    expect(repo.git('show', `${report.result!.commit!.branch}:src/math.js`)).toBe(FIXED.trimEnd());
    const asked = promptOf(codeRequests()[1]);
    expect(asked).toContain(
      '`src/math.js`: your new version replaces real code with a placeholder: line 5, `// ... rest of the file unchanged ...`',
    );
    expect(asked).toContain('    export function double(x) {\n      return x * 2;');
  });
});
