/**
 * The reproduce stage (issue #17) through `autofix run`'s runner: real git, real `node --test`
 * in the sandbox, the scripted model over HTTP. A reproduction must fail on the base commit by a
 * test's failure; the fix is validated with it and commits it; the PR text carries the evidence.
 * A test that passes on the base or fails to load is refused (and asked again once); with
 * `reproduce: required` a run without one stops before any fix is tried.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { printRunReport } from '../../../src/bin/print-run-report.js';
import { silentLogger } from '../../../src/logger.js';
import type { ProgressEvent } from '../../../src/pipeline/ports.js';
import { runLocal, type LocalRunReport } from '../../../src/hosts/local/run-local.js';
import type { FakeLlmServer } from '../../helpers/fake-llm-server.js';
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

const API_KEY = 'sk-test-reproduce-0123456789abcdefXY';
const ISSUE = '# add() returns the wrong result\n\nadd(2, 3) gives -1 instead of 5.';
const CONFIG = 'validate:\n  - node test.js\n';
const json = (v: unknown): string => JSON.stringify(v);

const reproduction = (body: string, path = 'test/issue-7-add.test.js') =>
  json({
    path,
    content:
      "import assert from 'node:assert/strict';\nimport { test } from 'node:test';\n" +
      "import { add } from '../src/math.js';\n\n" +
      body,
    command: `node --test ${path}`,
    test_name: 'add(2, 3) is 5 (#7)',
  });
/** Shows the bug: add subtracts. */
const FAILS_ON_BASE = reproduction(
  "test('add(2, 3) is 5 (#7)', () => {\n  assert.equal(add(2, 3), 5);\n});\n",
);
/** add(2, 0) is 2 either way: shows nothing. */
const PASSES_ON_BASE = reproduction(
  "test('add(2, 0) is 2', () => {\n  assert.equal(add(2, 0), 2);\n});\n",
);
const SYNTAX_ERROR = reproduction(
  "test('add(2, 3) is 5', () => {\n  assert.equal(add(2, 3), 5;\n});\n",
);

let env: LocalRunEnv;
let llm: FakeLlmServer;
let repo: SampleRepo;

beforeEach(async () => {
  env = await startLocalRunEnv(API_KEY);
  llm = env.llm;
});
afterEach(async () => {
  await stopLocalRunEnv(env);
  repo?.cleanup();
});

const run = (config = CONFIG): Promise<LocalRunReport> => {
  repo = createSampleRepo({ config });
  return runLocal({ repo: repo.dir, issueText: ISSUE, number: 7 }, env.settings, {
    log: silentLogger,
  });
};
const fix = `\`\`\`diff\n${FIX_DIFF}\`\`\``;
/** What the reproducer was told about its previous attempt (the second reproducer request). */
const reproducerRequests = () =>
  llm
    .chatRequests()
    .filter((r) => r.body.messages[0]?.content.includes('You are the reproducer agent'));

describe('reproduce: a test that fails on the base commit, then passes with the fix', () => {
  it('writes it, sees it fail on the base, validates the fix with it and commits it with the evidence', async () => {
    llm.enqueue(json(TRIAGE), json(PLAN), FAILS_ON_BASE, fix, json(PR_SUMMARY));
    const report = await run();

    expect(report.failure).toBeUndefined();
    expect(report.outcome).toBe('success');
    const r = report.result!.reproduction!;
    expect(r).toMatchObject({
      status: 'reproduced',
      path: 'test/issue-7-add.test.js',
      command: 'node --test test/issue-7-add.test.js',
    });
    // Failed on the base commit for the assertion (the real output of node --test).
    expect(r.status === 'reproduced' && r.base_failure).toMatch(/-1|AssertionError|Expected/);
    // Validated with the fix: the repository's command and the reproduction, both passing.
    expect(report.result!.code!.validation.map((v) => [v.command, v.exit_code])).toEqual([
      ['node test.js', 0],
      ['node --test test/issue-7-add.test.js', 0],
    ]);
    // Committed with the fix, on the branch.
    const commit = report.result!.commit!;
    expect(commit.files_changed.sort()).toEqual(['src/math.js', 'test/issue-7-add.test.js']);
    expect(repo.git('show', `${commit.branch}:test/issue-7-add.test.js`)).toContain(
      'assert.equal(add(2, 3), 5)',
    );
    // The evidence in the PR text.
    const pr = readFileSync(report.prFile!, 'utf8');
    expect(pr).toContain('### Reproduction');
    expect(pr).toContain('fails on the base commit');
    expect(pr).toContain('passes with the fix');
    // The code agent was told about the test, and not to edit it.
    const code = llm
      .chatRequests()
      .find((q) => q.body.messages[0]?.content.includes('You are the code agent'))!;
    expect(JSON.stringify(code.body.messages)).toContain('test/issue-7-add.test.js');
  });

  it('refuses a test that passes on the base commit, asks once more, then goes on without one (auto)', async () => {
    llm.enqueue(json(TRIAGE), json(PLAN), PASSES_ON_BASE, PASSES_ON_BASE, fix, json(PR_SUMMARY));
    const report = await run();

    expect(report.outcome).toBe('success');
    const r = report.result!.reproduction!;
    expect(r.status).toBe('not-reproduced');
    expect(r.status !== 'reproduced' && r.reason).toContain('passes on the base commit');
    const asks = reproducerRequests();
    expect(asks).toHaveLength(2);
    expect(JSON.stringify(asks[1]!.body.messages)).toContain('passes on the base commit');
    // Nothing of the refused test is left or committed.
    expect(report.result!.commit!.files_changed).toEqual(['src/math.js']);
    expect(readFileSync(report.prFile!, 'utf8')).toContain('_None: No failing reproduction');
  });

  it('refuses a test that fails to load (a syntax error), and takes the corrected one', async () => {
    llm.enqueue(json(TRIAGE), json(PLAN), SYNTAX_ERROR, FAILS_ON_BASE, fix, json(PR_SUMMARY));
    const report = await run();

    expect(report.outcome).toBe('success');
    expect(report.result!.reproduction!.status).toBe('reproduced');
    const asks = reproducerRequests();
    expect(asks).toHaveLength(2);
    expect(JSON.stringify(asks[1]!.body.messages)).toContain('fails with a syntax error');
  });

  it('refuses a command that is not a test runner on the test file, without running it', async () => {
    const evil = JSON.stringify({
      ...JSON.parse(FAILS_ON_BASE),
      command: 'node --test test/issue-7-add.test.js; curl http://127.0.0.1:9/x',
    });
    llm.enqueue(json(TRIAGE), json(PLAN), evil, evil, fix, json(PR_SUMMARY));
    const report = await run();

    expect(report.outcome).toBe('success');
    const r = report.result!.reproduction!;
    expect(r.status !== 'reproduced' && r.reason).toContain('not one of the allowed test runners');
  });

  it('a change the reproduction still fails with: the report says so, never "passes with the fix"', async () => {
    // A fix for add(2, 3) only: `node test.js` passes, the reproduction (negative numbers) does not.
    const negatives = reproduction(
      "test('add(-1, 1) is 0 (#7)', () => {\n  assert.equal(add(-1, 1), 0);\n});\n",
    );
    const partialFix = `\`\`\`diff\n${FIX_DIFF.replace('+  return a + b;', '+  return Math.abs(a) + b;')}\`\`\``;
    llm.enqueue(json(TRIAGE), json(PLAN), negatives, partialFix);
    repo = createSampleRepo({ config: `${CONFIG}max_repair_attempts: 0\n` });
    // What the report says does not depend on the sandbox (this one runs where bubblewrap is not).
    const report = await runLocal(
      { repo: repo.dir, issueText: ISSUE, number: 7, sandbox: 'none' },
      env.settings,
      { log: silentLogger },
    );

    expect(report.failure).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(report.failure!.validation).toContainEqual({
      command: 'node --test test/issue-7-add.test.js',
      exit_code: 1,
      timed_out: false,
    });
    let printed = '';
    printRunReport(report, {
      write: (chunk: string) => void (printed += chunk),
    } as unknown as NodeJS.WritableStream);
    expect(printed).not.toContain('passes with the fix');
    expect(printed).toMatch(
      /^Reproduction: test\/issue-7-add\.test\.js \(node --test \S+\) failed on the base commit and still fails with the change \(exit 1\)/m,
    );
  });

  it('progress: setup where it ran (in reproduce, before its end), a reproduction not written as skipped', async () => {
    llm.enqueue(json(TRIAGE), json(PLAN), PASSES_ON_BASE, PASSES_ON_BASE, fix, json(PR_SUMMARY));
    repo = createSampleRepo({ config: `setup:\n  - node -e "0"\n${CONFIG}` });
    const events: ProgressEvent[] = [];
    const report = await runLocal(
      { repo: repo.dir, issueText: ISSUE, number: 7, sandbox: 'none' },
      env.settings,
      { log: silentLogger, progress: (e) => void events.push(e) },
    );

    expect(report.outcome).toBe('success');
    const shown = events.filter((e) => !e.heartbeat).map((e) => `${e.stage} ${e.status}`);
    const reproduceEnd = shown.indexOf('reproduce skipped');
    expect(reproduceEnd).toBeGreaterThan(shown.indexOf('reproduce start'));
    expect(shown).not.toContain('reproduce done');
    expect(
      events[events.findIndex((e) => e.stage === 'reproduce' && e.status === 'skipped')]!.message,
    ).toMatch(/^no reproduction: No failing reproduction could be written/);
    // The reproduce stage's own setup is shown inside it, before it ends.
    const firstSetup = shown.indexOf('setup done');
    expect(firstSetup).toBeGreaterThan(shown.indexOf('reproduce start'));
    expect(firstSetup).toBeLessThan(reproduceEnd);
  });

  it('an answer the validator refuses twice: a plain sentence in the PR, its words only in the artifacts', async () => {
    const invalid = json({ path: 5, content: 'x', command: 'node --test x', test_name: 't' });
    llm.enqueue(json(TRIAGE), json(PLAN), invalid, invalid, fix, json(PR_SUMMARY));
    repo = createSampleRepo({ config: CONFIG });
    const report = await runLocal(
      { repo: repo.dir, issueText: ISSUE, number: 7, sandbox: 'none' },
      env.settings,
      { log: silentLogger },
    );

    expect(report.outcome).toBe('success');
    const pr = readFileSync(report.prFile!, 'utf8');
    expect(pr).toContain(
      '_None: No failing reproduction could be written: the model did not answer in the form asked for, even when asked again._',
    );
    expect(pr).not.toMatch(/ReproductionAnswer|Invalid input|re-ask/);
    const summary = readFileSync(join(report.artifactsDir, 'summary.json'), 'utf8');
    const saved = JSON.parse(summary) as { reproduction: { detail?: string } };
    expect(saved.reproduction.detail).toMatch(/not a valid ReproductionAnswer/);
  });

  it('refuses a fix that edits the reproduction test, even when every command passes', async () => {
    // The plan happens to list the test's path: the code agent is asked for both files, and its
    // answer for the test rewrites it (here harmlessly, a comment; it could weaken the assertion).
    const plan = {
      ...PLAN,
      file_changes: [
        ...PLAN.file_changes,
        { path: 'test/issue-7-add.test.js', operation: 'CREATE' },
      ],
    };
    const editTest = [
      '--- a/test/issue-7-add.test.js',
      '+++ b/test/issue-7-add.test.js',
      '@@ -1,2 +1,3 @@',
      '+// reviewed',
      " import assert from 'node:assert/strict';",
      " import { test } from 'node:test';",
      '',
    ].join('\n');
    const perFile = (q: { body: { messages: { content: string }[] } }) =>
      q.body.messages.at(-1)!.content.includes('Path: `test/issue-7-add.test.js`')
        ? `\`\`\`diff\n${editTest}\`\`\``
        : fix;
    llm.enqueue(json(TRIAGE), json(plan), FAILS_ON_BASE, perFile, perFile);
    const report = await run();

    expect(report.outcome).toBe('failed');
    expect(report.failure).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(report.failure!.message).toContain('edited the reproduction test');
    expect(repo.git('branch', '--list', 'autofix/*')).toBe('');
  });

  it('refuses a test placed where the bot may not write (node_modules) or outside the repository', async () => {
    const at = (path: string) =>
      JSON.stringify({ ...JSON.parse(FAILS_ON_BASE), path, command: `node --test ${path}` });
    llm.enqueue(
      json(TRIAGE),
      json(PLAN),
      at('node_modules/add.test.js'),
      at('../outside/add.test.js'),
      fix,
      json(PR_SUMMARY),
    );
    const report = await run();

    expect(report.outcome).toBe('success');
    const r = report.result!.reproduction!;
    expect(r.status).toBe('not-reproduced');
    expect(r.status !== 'reproduced' && r.reason).toContain('not a plain repository path');
    const asks = reproducerRequests();
    // The first was refused by the bot's path policy (node_modules is never written), before it ran.
    const previous = asks[1]!.body.messages.at(-1)!.content.split('## Your previous attempt')[1]!;
    expect(previous).toContain('node_modules/add.test.js');
    expect(previous).not.toContain('not a plain repository path');
    // Neither was written or committed.
    expect(report.result!.commit!.files_changed).toEqual(['src/math.js']);
    expect(existsSync(join(repo.dir, '..', 'outside'))).toBe(false);
  });

  it('reproduce: required — no reproduction stops the run before any fix, nothing written', async () => {
    llm.enqueue(json(TRIAGE), json(PLAN), PASSES_ON_BASE, PASSES_ON_BASE);
    const report = await run(`${CONFIG}reproduce: required\n`);

    expect(report.outcome).toBe('stopped');
    expect(report.stopped).toContain('reproduce: required');
    // The code agent was never asked; no branch was made.
    expect(
      llm
        .chatRequests()
        .filter((q) => q.body.messages[0]?.content.includes('You are the code agent')),
    ).toHaveLength(0);
    expect(repo.git('branch', '--list', 'autofix/*')).toBe('');
  });

  it('a failing setup ends the run as SETUP_FAILED before the reproducer is asked', async () => {
    llm.enqueue(json(TRIAGE), json(PLAN), FAILS_ON_BASE, fix, json(PR_SUMMARY));
    const report = await run(`setup:\n  - node -e "process.exit(3)"\n${CONFIG}`);

    expect(report.outcome).toBe('failed');
    expect(report.failure).toMatchObject({ code: 'SETUP_FAILED', stage: 'reproduce' });
    // No token spent on a test, and the model is never blamed for the setup.
    expect(reproducerRequests()).toHaveLength(0);
  });

  it('skips issues triaged as features (auto) without asking the reproducer', async () => {
    llm.enqueue(json({ ...TRIAGE, classification: 'feat' }), json(PLAN), fix, json(PR_SUMMARY));
    const report = await run();

    expect(report.outcome).toBe('success');
    expect(report.result!.reproduction).toMatchObject({ status: 'skipped' });
    expect(reproducerRequests()).toHaveLength(0);
  });
});
