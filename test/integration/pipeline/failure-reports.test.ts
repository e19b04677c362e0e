/**
 * What `autofix run` says when it fails (issue #14), on real repositories with real commands and
 * the scripted LLM: the root cause first (command, exit code, the tail of its output, ANSI
 * stripped, secrets redacted), what the repairs did after it, the log file that holds it all; a
 * failing `setup` never reaches the fixer; failures that already exist on the base commit are
 * not blamed on the change.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { printRunReport } from '../../../src/bin/print-run-report.js';
import type { Settings } from '../../../src/config/env.js';
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

const API_KEY = 'sk-test-failure-reports-0123456789QZ';
const ISSUE = '# add() returns the wrong result\n\nadd(2, 3) gives -1 instead of 5.';
const BREAKING = FIX_DIFF.replace('+  return a + b;', '+  return a * b;');

let llm: FakeLlmServer;
let repo: SampleRepo | undefined;
let settings: Settings;

let env: LocalRunEnv;

beforeEach(async () => {
  env = await startLocalRunEnv(API_KEY);
  ({ llm, settings } = env);
});

afterEach(async () => {
  await stopLocalRunEnv(env);
  repo?.cleanup();
  repo = undefined;
});

const json = (v: unknown): string => JSON.stringify(v);

async function run(
  extra: Partial<Parameters<typeof runLocal>[0]> = {},
  events: ProgressEvent[] = [],
): Promise<{ report: LocalRunReport; printed: string }> {
  const report = await runLocal(
    { repo: repo!.dir, issueText: ISSUE, number: 7, ...extra },
    settings,
    {
      log: silentLogger,
      progress: (e) => events.push(e),
    },
  );
  let printed = '';
  printRunReport(report, {
    write: (chunk: string) => {
      printed += chunk;
      return true;
    },
  } as unknown as NodeJS.WritableStream);
  return { report, printed };
}

/** The prompts of every code-fixer call (a repair round). */
function fixerPrompts(): string[] {
  return llm
    .chatRequests()
    .map((r) => r.body.messages.map((m) => m.content).join('\n'))
    .filter((text) => text.includes('Your previous answer') || text.includes('Validation failed:'));
}

/** The path after `Full log: ` in a message. */
function fullLog(message: string): string {
  const m = /^Full log: (.+)$/m.exec(message);
  expect(m).not.toBeNull();
  return m![1]!;
}

describe('failure reports of autofix run', () => {
  it('a failing setup (npm ci without a lockfile) is SETUP_FAILED: never sent to the fixer, the command, exit code, output tail and what to change', async () => {
    repo = createSampleRepo({
      config: 'reproduce: off\nsetup:\n  - npm ci\nvalidate:\n  - node test.js\n',
    });
    llm.enqueue(json(TRIAGE), json(PLAN), FIX_DIFF, FIX_DIFF, json(PR_SUMMARY));
    const events: ProgressEvent[] = [];
    const { report, printed } = await run({}, events);

    expect(report.failure?.code).toBe('SETUP_FAILED');
    const message = report.failure!.message;
    expect(message.split('\n')[0]).toBe(
      'Setup command `npm ci` failed with exit code 1 on the base commit, before any change was tried',
    );
    // npm's own words, from the end of its output.
    expect(message).toMatch(/package-lock\.json|npm-shrinkwrap\.json|EUSAGE/);
    expect(message).toContain('Change `setup:` in `.github/autofix.yml`');
    expect(fixerPrompts()).toEqual([]);
    const log = fullLog(message);
    expect(log).toBe(join(report.artifactsDir, 'setup-build.txt'));
    expect(readFileSync(log, 'utf8')).toContain('$ npm ci');
    // The terminal report leads with it; setup was its own step in the progress.
    expect(printed).toContain('Failed in code (SETUP_FAILED); everything was rolled back:');
    expect(printed).toContain(
      '  Setup command `npm ci` failed with exit code 1 on the base commit',
    );
    expect(events.find((e) => e.stage === 'setup' && e.status === 'start')?.message).toBe(
      '`npm ci`',
    );
    expect(events[0]).toEqual(expect.objectContaining({ stage: 'workspace', status: 'start' }));
    expect(repo.git('branch', '--list', 'autofix/*')).toBe('');
  });

  it('validation fails, then the repairs are refused: the report leads with the failing command and the tail of its output, then the refusals, then the log', async () => {
    // 60 lines of noise with colour codes, the assertion last, and a secret printed.
    repo = createSampleRepo({
      config:
        'reproduce: off\nvalidate:\n  - node test.js\nmax_repair_attempts: 2\nenv_passthrough: [LEAKED]\n',
      files: {
        'test.js':
          "import { add } from './src/math.js';\n" +
          'for (let i = 1; i <= 60; i++) console.log(`\\x1b[32m  ✓ check ${i}\\x1b[39m`);\n' +
          `if (add(2, 3) !== 5 && add(2, 3) !== -1) { console.error('\\x1b[31mAssertionError: add(2, 3) = ' + add(2, 3) + ', expected 5 (key ${API_KEY})\\x1b[39m'); process.exit(1); }\n`,
      },
    });
    llm.enqueue(
      json(TRIAGE),
      json(PLAN),
      BREAKING,
      'I am not sure what to change.',
      '```diff\n--- a/src/math.js\n+++ b/src/math.js\n@@ -1,3 +1,3 @@\n export function add(x, y) {\n-  return nothing;\n+  return x + y;\n }\n```',
    );
    const { report, printed } = await run();

    expect(report.failure?.code).toBe('VALIDATION_FAILED');
    const message = report.failure!.message;
    const lines = message.split('\n');
    expect(lines[0]).toBe(
      '`node test.js` failed with exit code 1 with the change; 2 repair attempt(s) could not be used',
    );
    expect(message).toContain('AssertionError: add(2, 3) = 6, expected 5 (key ****QZ)');
    expect(message).not.toContain(API_KEY);
    expect(message).not.toContain('\x1b');
    expect(message).toMatch(/… \d+ lines cut …/);
    expect(message).toMatch(
      /After that:\n {2}- repair 1: .*\n {2}- repair 2: the answer was refused/,
    );
    const log = fullLog(message);
    expect(log).toBe(join(report.artifactsDir, 'query-3-build.txt'));
    expect(readFileSync(log, 'utf8')).toContain('✓ check 1\n');
    // Printed whole: the tail with the assertion is on the terminal.
    expect(printed).toContain('Failed in code (VALIDATION_FAILED)');
    expect(printed).toContain('AssertionError: add(2, 3) = 6, expected 5');
    expect(printed).toContain(`Full log: ${log}`);
    expect(printed).toContain(
      message
        .split('\n')
        .map((l) => `  ${l}`)
        .join('\n'),
    );
  });

  it('a test that already fails on the base commit (it needs the network) is reported as pre-existing, not sent to the fixer; the baseline is cached per commit and config', async () => {
    repo = createSampleRepo({
      config: 'reproduce: off\nvalidate:\n  - node test.js\n  - node net.js\n',
      files: {
        'net.js':
          "console.log('TAP version 13');\n" +
          "console.log('ok 1 - parses rates');\n" +
          "try { await fetch('http://registry.example.test/rates'); console.log('ok 2 - fetches rates'); }\n" +
          "catch (e) { console.log('not ok 2 - fetches rates'); console.log('  # ' + (e.cause?.code ?? e.message)); process.exitCode = 1; }\n",
      },
    });
    llm.enqueue(json(TRIAGE), json(PLAN), FIX_DIFF, json(PR_SUMMARY));
    const { report, printed } = await run();

    expect(report.failure).toBeUndefined();
    expect(fixerPrompts()).toEqual([]);
    const code = report.result!.code!;
    expect(code.preexisting).toEqual(['node net.js']);
    expect(code.baseline).toEqual(
      expect.objectContaining({ cached: false, failing: ['node test.js', 'node net.js'] }),
    );
    expect(code.warnings.join('\n')).toContain(
      '`node net.js` already fails on the base commit (1 failing: `fetches rates`); it fails the same way with the change, so it is not counted against it.',
    );
    expect(code.warnings.join('\n')).toContain('`validate` commands run without any network');
    expect(printed).toMatch(
      /FAIL {2}exit 1 .* node net\.js {2}\(already failing on the base commit\)/,
    );
    expect(readFileSync(report.prFile!, 'utf8')).toContain('already fails on the base commit');
    expect(existsSync(join(report.artifactsDir, 'baseline-build.txt'))).toBe(true);

    // Same base commit and config: the baseline comes from the cache.
    llm.enqueue(json(TRIAGE), json(PLAN), FIX_DIFF, json(PR_SUMMARY));
    const again = await run({ fresh: true });
    expect(again.report.failure).toBeUndefined();
    expect(again.report.result!.code!.baseline?.cached).toBe(true);
    expect(existsSync(join(again.report.artifactsDir, 'baseline-build.txt'))).toBe(false);
  });

  it('the failing test that shows the bug already fails on the base commit: a change that leaves it failing is not excused, the fixer is told so', async () => {
    // The sample's test.js fails on the base commit with "FAIL add(2, 3) = -1": the issue's bug.
    repo = createSampleRepo({
      config: 'reproduce: off\nvalidate:\n  - node test.js\nmax_repair_attempts: 1\n',
    });
    const beside = [
      '--- a/src/math.js',
      '+++ b/src/math.js',
      '@@ -5,3 +5,3 @@',
      ' export function double(x) {',
      '-  return x * 2;',
      '+  return 2 * x;',
      ' }',
      '',
    ].join('\n');
    llm.enqueue(json(TRIAGE), json(PLAN), beside, FIX_DIFF, json(PR_SUMMARY));
    const { report } = await run();

    expect(report.failure).toBeUndefined();
    expect(report.result!.code!.repairs).toBe(1);
    expect(report.result!.code!.preexisting).toEqual([]);
    const [fixer] = fixerPrompts();
    expect(fixer).toContain(
      'This failure already happened before your change, and it is about what the issue describes',
    );
    expect(fixer).toContain('FAIL add(2, 3) = -1, expected 5');
  });

  it('a baseline cut short (the model failed meanwhile) is not cached: the next run validates the base again', async () => {
    repo = createSampleRepo({
      config: 'reproduce: off\nvalidate:\n  - node slow.js\n  - node test.js\n',
      files: { 'slow.js': "await new Promise((r) => setTimeout(r, 3000)); console.log('ok');\n" },
    });
    // The code agent's call is refused for good while the baseline still runs `node slow.js`.
    llm.enqueue(json(TRIAGE), json(PLAN), { status: 400, body: { error: { message: 'bad' } } });
    const { report } = await run();
    expect(report.failure?.code).toBe('LLM_UNAVAILABLE');
    expect(existsSync(join(settings.workdir, 'baselines'))).toBe(false);

    llm.enqueue(json(TRIAGE), json(PLAN), FIX_DIFF, json(PR_SUMMARY));
    const again = await run();
    expect(again.report.failure).toBeUndefined();
    expect(again.report.result!.code!.baseline).toEqual(
      expect.objectContaining({ cached: false, failing: ['node test.js'] }),
    );
  });

  it('a change that breaks a passing test in a command that already fails is blamed, and the fixer is told which tests are new', async () => {
    repo = createSampleRepo({
      config: 'reproduce: off\nvalidate:\n  - node tap.js\nmax_repair_attempts: 1\n',
      files: {
        'tap.js':
          "import { add, double } from './src/math.js';\n" +
          "console.log(double(4) === 8 ? 'ok 1 - double' : 'not ok 1 - double');\n" +
          "console.log('not ok 2 - talks to the network');\n" +
          "console.log(add(2, 3) === 6 ? 'not ok 3 - add is not a product' : 'ok 3 - add is not a product');\n" +
          'process.exitCode = 1;\n',
      },
    });
    llm.enqueue(
      json(TRIAGE),
      json(PLAN),
      BREAKING,
      FIX_DIFF.replace('-  return a - b;', '-  return a * b;'),
      json(PR_SUMMARY),
    );
    const { report } = await run();

    expect(report.failure).toBeUndefined();
    expect(report.result!.code!.repairs).toBe(1);
    const [fixer] = fixerPrompts();
    // Only the new failure is listed; the network test was failing before the change.
    expect(fixer).toContain(
      'These fail with your change and pass on the base commit (fix these; failures not listed here already existed before the change):\n- add is not a product\n\n',
    );
    expect(report.result!.code!.preexisting).toEqual(['node tap.js']);
  });
});
