import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { printRunReport } from '../../../src/bin/print-run-report.js';
import { readSettings, type Settings } from '../../../src/config/env.js';
import { silentLogger } from '../../../src/logger.js';
import { runLocal, type LocalRunReport } from '../../../src/hosts/local/run-local.js';
import type { FakeLlmServer } from '../../helpers/fake-llm-server.js';
import {
  startLocalRunEnv,
  stopLocalRunEnv,
  type LocalRunEnv,
} from '../../helpers/local-run-env.js';
import {
  BUGGY_MATH,
  createSampleRepo,
  FIX_DIFF,
  PLAN,
  PR_SUMMARY,
  TRIAGE,
  type SampleRepo,
} from '../../helpers/sample-repo.js';

const API_KEY = 'sk-test-run-local-key-0123456789XY';
const ISSUE =
  '# add() returns the wrong result\n\nadd(2, 3) gives -1 instead of 5. See src/math.js.';

let llm: FakeLlmServer;
let repo: SampleRepo;
let workdir: string;
let settings: Settings;

let env: LocalRunEnv;

beforeEach(async () => {
  env = await startLocalRunEnv(API_KEY);
  ({ llm, workdir, settings } = env);
});

afterEach(async () => {
  await stopLocalRunEnv(env);
  repo?.cleanup();
});

const json = (v: unknown): string => JSON.stringify(v);
const run = (extra: Partial<Parameters<typeof runLocal>[0]> = {}): Promise<LocalRunReport> =>
  runLocal({ repo: repo.dir, issueText: ISSUE, number: 7, ...extra }, settings, {
    log: silentLogger,
  });

/** Every artifact's text, for redaction checks. */
function artifactTexts(dir: string): string {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => readFileSync(join(e.parentPath, e.name), 'utf8'))
    .join('\n');
}

describe('autofix run (in process, scripted LLM over HTTP, real git and commands)', () => {
  it('fixes the issue: triage → plan → diff → validation → commit on a branch of the repository', async () => {
    repo = createSampleRepo();
    llm.enqueue(
      json(TRIAGE),
      json(PLAN),
      `Here is the fix:\n\n\`\`\`diff\n${FIX_DIFF}\`\`\``,
      json(PR_SUMMARY),
    );
    const report = await run();

    expect(report.failure).toBeUndefined();
    expect(report.outcome).toBe('success');
    const commit = report.result!.commit!;
    expect(commit.branch).toBe('autofix/fix/7-add-returns-the-wrong-result');
    expect(commit.message.split('\n')[0]).toBe('fix(math): return the sum from add()');
    expect(commit.message).toContain('\n\nFixes #7\n');
    // The branch is in the user's repository; their checkout is untouched.
    expect(repo.git('rev-parse', commit.branch)).toBe(commit.sha);
    expect(repo.git('show', `${commit.branch}:src/math.js`)).toContain('return a + b;');
    expect(repo.git('log', '-1', '--format=%B', commit.branch)).toContain(
      'Signed-off-by: autofix[bot]',
    );
    expect(repo.git('rev-parse', '--abbrev-ref', 'HEAD')).toBe('main');
    expect(readFileSync(join(repo.dir, 'src/math.js'), 'utf8')).toBe(BUGGY_MATH);
    // Validation ran the repository's own command; the plan kept only allowed commands.
    expect(report.result!.code!.validation.map((v) => [v.command, v.exit_code])).toEqual([
      ['node test.js', 0],
    ]);
    expect(report.result!.plan!.validation_commands).toEqual(['node test.js']);
    // Artifacts, query-N naming, PR body.
    const files = readdirSync(report.artifactsDir).sort();
    expect(files).toEqual(
      expect.arrayContaining([
        'query-1.txt',
        'query-1-response.json',
        'query-1-response.txt',
        'query-3-build.txt',
        'summary.json',
        'pull-request.md',
      ]),
    );
    const pr = readFileSync(report.prFile!, 'utf8');
    expect(pr).toContain('# fix(math): return the sum from add()');
    expect(pr).toContain(PR_SUMMARY.summary);
    expect(pr).toContain('| `node test.js` | ✅ | 0 |');
    const summary = JSON.parse(readFileSync(join(report.artifactsDir, 'summary.json'), 'utf8')) as {
      outcome: string;
      tokens: { total: number };
    };
    expect(summary.outcome).toBe('success');
    expect(summary.tokens.total).toBeGreaterThan(0);
    // The report ends with the diff stat and the command that shows the diff; --show-diff prints it.
    expect(report.diffStat).toMatch(/src\/math\.js \| 2 \+-/);
    const printed = (showDiff: boolean): string => {
      let text = '';
      printRunReport(
        report,
        { write: (c: string) => ((text += c), true) } as unknown as NodeJS.WritableStream,
        { showDiff },
      );
      return text;
    };
    expect(printed(false)).toContain(`  see it: git -C ${repo.dir} show ${commit.branch}\n`);
    expect(printed(true)).toContain('+  return a + b;');
    expect(printed(true)).not.toContain('see it:');
    // The key travels only in the Authorization header.
    for (const r of llm.chatRequests()) {
      expect(r.headers.authorization).toBe(`Bearer ${API_KEY}`);
      expect(r.rawBody).not.toContain(API_KEY);
    }
  });

  it('repairs: the first diff breaks the tests, the fixer sees the failure and the latest file and fixes it', async () => {
    repo = createSampleRepo();
    const breaking = FIX_DIFF.replace('+  return a + b;', '+  return a * b;');
    llm.enqueue(
      json(TRIAGE),
      json(PLAN),
      breaking,
      FIX_DIFF.replace('-  return a - b;', '-  return a * b;'),
      json(PR_SUMMARY),
    );
    const report = await run();
    expect(report.failure).toBeUndefined();
    expect(report.result!.code!.repairs).toBe(1);
    const fixerPrompt = llm
      .chatRequests()[3]!
      .body.messages.map((m) => m.content)
      .join('\n');
    expect(fixerPrompt).toContain('FAIL add(2, 3) = 6, expected 5'); // the failure excerpt
    expect(fixerPrompt).toContain('--- FILE REPLACEMENT src/math.js ---'); // latest version of the file
    expect(fixerPrompt).toContain('return a * b;');
    expect(repo.git('show', `${report.result!.commit!.branch}:src/math.js`)).toContain(
      'return a + b;',
    );
    expect(readdirSync(report.artifactsDir)).toEqual(
      expect.arrayContaining(['query-3-build.txt', 'query-4-build.txt']),
    );
  });

  it("reads a reasoning model's diff after its <think> section, and says so when the model declines", async () => {
    repo = createSampleRepo();
    llm.enqueue(
      `<think>The plan says {"risk": "HIGH"} maybe?</think>${json(TRIAGE)}`,
      json(PLAN),
      // Its reasoning drafts a wrong diff first: only the answer after it may be applied.
      `<think>\nFirst idea:\n${FIX_DIFF.replace('+  return a + b;', '+  return a * b;')}\nNo, the sum.\n</think>\n${FIX_DIFF}`,
      json(PR_SUMMARY),
    );
    const report = await run();
    expect(report.failure).toBeUndefined();
    expect(report.result!.code!.repairs).toBe(0);
    expect(repo.git('show', `${report.result!.commit!.branch}:src/math.js`)).toContain(
      'return a + b;',
    );

    repo.cleanup();
    repo = createSampleRepo();
    llm.enqueue(json(TRIAGE), json(PLAN), "I'm sorry, but I can't help with that request.");
    const declined = await run();
    expect(declined.failure?.code).toBe('LLM_OUTPUT_INVALID');
    expect(declined.failure?.message).toBe(
      'The model declined to give its code answer: "I\'m sorry, but I can\'t help with that request."',
    );
  });

  it("gives every stage the repository's AGENTS.md from the base commit, quoted as data", async () => {
    repo = createSampleRepo({
      files: {
        'AGENTS.md': '# For agents\n\nKeep functions small; tests live next to the code.\n',
      },
    });
    llm.enqueue(json(TRIAGE), json(PLAN), FIX_DIFF, json(PR_SUMMARY));
    const report = await run();
    expect(report.failure).toBeUndefined();
    const prompts = llm.chatRequests().map((r) => r.body.messages.map((m) => m.content));
    expect(prompts).toHaveLength(4); // triage, plan, code, pr
    for (const [system, user] of prompts) {
      expect(system).not.toContain('Keep functions small'); // never in the system message
      expect(user).toMatch(
        /<untrusted-data[^\n]*repo_guidance[^\n]*>\n### AGENTS\.md\n\n# For agents\n\nKeep functions small; tests live next to the code\./,
      );
    }
  });

  it('re-asks once on invalid JSON, then goes on', async () => {
    repo = createSampleRepo();
    llm.enqueue('I think the risk is low!', json(TRIAGE), json(PLAN), FIX_DIFF, json(PR_SUMMARY));
    const report = await run();
    expect(report.outcome).toBe('success');
    const reask = llm.chatRequests()[1]!.body.messages.at(-1)!.content;
    expect(reask).toContain('not a valid TriageResult');
  });

  it.each([
    ['../outside.js', 'must stay inside'],
    ['.github/workflows/x.yml', '.github/workflows'],
  ])(
    'refuses an answer that writes %s, writes nothing, and feeds the refusal to the fixer',
    async (path) => {
      repo = createSampleRepo({
        config: 'reproduce: off\nvalidate:\n  - node test.js\nmax_repair_attempts: 1\n',
      });
      const hostile = `--- /dev/null\n+++ b/${path}\n@@ -0,0 +1 @@\n+pwned\n${FIX_DIFF}`;
      llm.enqueue(json(TRIAGE), json(PLAN), hostile, FIX_DIFF, json(PR_SUMMARY));
      const report = await run();
      expect(report.outcome).toBe('success');
      const fixerPrompt = llm
        .chatRequests()[3]!
        .body.messages.map((m) => m.content)
        .join('\n');
      expect(fixerPrompt).toMatch(/PROTECTED_PATH|WRITE_SCOPE_VIOLATION/);
      expect(fixerPrompt).toContain(path.replace('../', ''));
      expect(existsSync(join(repo.root, 'outside.js'))).toBe(false);
      const branch = report.result!.commit!.branch;
      expect(repo.git('show', '--stat', '--format=', branch)).not.toContain('workflows');
    },
  );

  it('retries a 429 honouring retry-after, then succeeds', async () => {
    repo = createSampleRepo();
    llm.enqueue(
      { status: 429, headers: { 'retry-after': '0.2' } },
      json(TRIAGE),
      json(PLAN),
      FIX_DIFF,
      json(PR_SUMMARY),
    );
    const report = await run();
    expect(report.outcome).toBe('success');
    const [first, second] = llm.chatRequests();
    expect(second!.receivedAt - first!.receivedAt).toBeGreaterThanOrEqual(180);
  });

  it('stops with BUDGET_EXCEEDED and rolls back', async () => {
    repo = createSampleRepo({
      config: 'reproduce: off\nvalidate:\n  - node test.js\ntoken_budget: 1000\n',
    });
    llm.enqueue({ content: json(TRIAGE), usage: { prompt_tokens: 900, completion_tokens: 200 } });
    const report = await run();
    expect(report.outcome).toBe('failed');
    expect(report.failure?.code).toBe('BUDGET_EXCEEDED');
    expect(repo.git('branch', '--list', 'autofix/*')).toBe('');
  });

  it('declines a HIGH risk issue without writing code', async () => {
    repo = createSampleRepo();
    llm.enqueue(json({ ...TRIAGE, risk: 'HIGH', summary: 'Rewrites the arithmetic core.' }));
    const report = await run();
    expect(report.failure?.code).toBe('RISK_TOO_HIGH');
    expect(report.failure?.message).toContain('HIGH risk');
    expect(llm.chatRequests()).toHaveLength(1);
    expect(repo.git('branch', '--list', 'autofix/*')).toBe('');
  });

  it('fails after the last repair, rolls back, and redacts the API key from every artifact', async () => {
    // The test command prints the key: a build log is where secrets leak.
    repo = createSampleRepo({
      config:
        'reproduce: off\nvalidate:\n  - node leak.js\nmax_repair_attempts: 1\nenv_passthrough: [LEAKED]\n',
      // Passes on the base commit (so the baseline does not excuse it), fails with the change.
      files: {
        'leak.js': `import { add } from './src/math.js';\nif (add(2, 3) === 5) { console.error('key is ${API_KEY}'); process.exit(1); }\n`,
      },
    });
    llm.enqueue(
      json(TRIAGE),
      json({ ...PLAN, validation_commands: [] }),
      FIX_DIFF,
      FIX_DIFF.replace('-  return a - b;', '-  return a + b;').replace(
        '+  return a + b;',
        '+  return b + a;',
      ),
    );
    const report = await run();
    expect(report.outcome).toBe('failed');
    expect(report.failure?.code).toBe('VALIDATION_FAILED');
    expect(report.failure?.message).toContain('node leak.js');
    const texts = artifactTexts(report.artifactsDir);
    expect(texts).toContain('key is ****XY');
    expect(texts).not.toContain(API_KEY);
    expect(JSON.stringify(report)).not.toContain(API_KEY);
    // Rolled back: no branch in the repository, its checkout untouched.
    expect(repo.git('branch', '--list', 'autofix/*')).toBe('');
    expect(repo.git('status', '--porcelain')).toBe('');
  });

  it("uses the repository's own triage prompt from .github/autofix/agents/", async () => {
    const shipped = readFileSync(join(process.cwd(), 'agents', 'triage.md'), 'utf8');
    const override = shipped.replace(
      '<!-- system -->',
      '<!-- system -->\n\nHOUSE RULE: this repository is a calculator.\n',
    );
    repo = createSampleRepo({ files: { '.github/autofix/agents/triage.md': override } });
    llm.enqueue(json({ ...TRIAGE, risk: 'HIGH' }));
    await run();
    expect(llm.chatRequests()[0]!.body.messages[0]!.content).toContain(
      'HOUSE RULE: this repository is a calculator.',
    );
  });

  it("hides the worker's private key from repository commands in the sandbox", async () => {
    // Not under /tmp: the sandbox's /tmp is private anyway, which would hide the key by accident.
    const keyDir = mkdtempSync(join(homedir(), '.autofix-test-key-'));
    const keyPath = join(keyDir, 'app.pem');
    writeFileSync(
      keyPath,
      '-----BEGIN RSA PRIVATE KEY-----\nMIIBsecret\n-----END RSA PRIVATE KEY-----\n',
    );
    settings = readSettings({
      OPENAI_BASE_URL: llm.baseUrl,
      OPENAI_API_KEY: API_KEY,
      AUTOFIX_WORKDIR: workdir,
      PRIVATE_KEY_PATH: keyPath,
    });
    // Passes only if the key cannot be read: a test script is repository code.
    const probe = `import { readFileSync } from 'node:fs';\ntry { readFileSync(${JSON.stringify(keyPath)}); console.error('KEY READABLE'); process.exit(1); } catch (e) { console.log(e.code); }\n`;
    repo = createSampleRepo({
      config: 'reproduce: off\nvalidate:\n  - node probe.mjs\nsandbox: bwrap\n',
      files: { 'probe.mjs': probe },
    });
    llm.enqueue(json(TRIAGE), json(PLAN), FIX_DIFF, json(PR_SUMMARY));
    try {
      const report = await run();
      expect(report.failure).toBeUndefined();
      expect(report.result!.code!.validation[0]!.stdout).toContain('ENOENT');
      expect(readFileSync(keyPath, 'utf8')).toContain('MIIBsecret'); // outside the sandbox it is there
    } finally {
      rmSync(keyDir, { recursive: true, force: true });
    }
  });

  it('gives a deterministic run id for the same inputs, and each run a fresh artifacts folder', async () => {
    repo = createSampleRepo();
    llm.enqueue(json({ ...TRIAGE, risk: 'HIGH' }), json({ ...TRIAGE, risk: 'HIGH' }));
    const a = await run();
    writeFileSync(join(a.artifactsDir, 'pull-request.md'), 'left by an earlier run\n');
    const b = await run();
    expect(a.runId).toBe(b.runId);
    expect(a.runId).toMatch(/^run-[0-9a-f]{16}$/);
    // The second run's folder holds its own files only; the first run's were moved aside.
    expect(readdirSync(b.artifactsDir)).not.toContain('pull-request.md');
    expect(readdirSync(b.artifactsDir)).toContain('llm-user-output.txt');
    expect(b.previousArtifactsDir).toMatch(new RegExp(`${b.runId}\\.previous-`));
    expect(readFileSync(join(b.previousArtifactsDir!, 'pull-request.md'), 'utf8')).toBe(
      'left by an earlier run\n',
    );
  });
});
