import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.js';
import { startFakeLlmServer, type FakeLlmServer } from '../helpers/fake-llm-server.js';
import {
  createSampleRepo,
  FIX_DIFF,
  PLAN,
  PR_SUMMARY,
  TRIAGE,
  type SampleRepo,
} from '../helpers/sample-repo.js';
import { underLoad } from '../helpers/deadlines.js';
import { jest } from '@jest/globals';

// A hang guard for every test of this file (test/helpers/deadlines.ts).
jest.setTimeout(underLoad(90_000));

const API_KEY = 'sk-e2e-run-key-abcdefghij0123456789';
let llm: FakeLlmServer;
let repo: SampleRepo;
let workdir: string;

beforeEach(async () => {
  llm = await startFakeLlmServer({ apiKey: API_KEY });
  repo = createSampleRepo();
  workdir = mkdtempSync(join(tmpdir(), 'autofix-e2e-run-'));
});
afterEach(async () => {
  await llm.close();
  repo.cleanup();
  rmSync(workdir, { recursive: true, force: true });
});

const env = (): Record<string, string> => ({
  OPENAI_BASE_URL: llm.baseUrl,
  OPENAI_API_KEY: API_KEY,
  AUTOFIX_WORKDIR: workdir,
  AUTOFIX_MODEL: 'scripted',
});

describe('autofix run (the CLI binary)', () => {
  it('exits 0, prints the report and writes pull-request.md', async () => {
    const issueFile = join(workdir, 'issue.md');
    writeFileSync(issueFile, '# add() returns the wrong result\n\nadd(2, 3) is -1.\n');
    llm.enqueue(JSON.stringify(TRIAGE), JSON.stringify(PLAN), FIX_DIFF, JSON.stringify(PR_SUMMARY));
    const r = await runCli(
      ['run', '--repo', repo.dir, '--issue-file', issueFile, '--number', '12'],
      { env: env() },
    );
    expect(r.stderr).toMatch(/triage\s+✔/);
    // The first line says what it is doing before any git or sandbox check.
    expect(r.stderr.split('\n')[0]).toMatch(/^\[\d+\.\ds\] workspace … checking /);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      `see it: git -C ${repo.dir} show autofix/fix/12-add-returns-the-wrong-result`,
    );
    expect(r.stdout).toContain('SUCCESS');
    expect(r.stdout).toContain('fix(math): return the sum from add()');
    expect(r.stdout).toMatch(/PASS\s+exit 0\s+\d+ ms\s+node test\.js/);
    const prFile = /Pull request text: (\S+)/.exec(r.stdout)![1]!;
    expect(readFileSync(prFile, 'utf8')).toContain('Fixes #12');
    expect(repo.git('branch', '--list', 'autofix/*')).toContain(
      'autofix/fix/12-add-returns-the-wrong-result',
    );
  });

  it('refuses a rerun on an issue whose branch exists, before any LLM call; --fresh replaces the branch', async () => {
    const issueFile = join(workdir, 'issue.md');
    writeFileSync(issueFile, '# add() returns the wrong result\n\nadd(2, 3) is -1.\n');
    const answers = [
      JSON.stringify(TRIAGE),
      JSON.stringify(PLAN),
      FIX_DIFF,
      JSON.stringify(PR_SUMMARY),
    ];
    llm.enqueue(...answers);
    const args = ['run', '--repo', repo.dir, '--issue-file', issueFile, '--number', '12'];
    expect((await runCli(args, { env: env() })).code).toBe(0);
    const branch = 'autofix/fix/12-add-returns-the-wrong-result';
    const first = repo.git('rev-parse', branch);
    const calls = llm.chatRequests().length;

    const again = await runCli(args, { env: env() });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`branch ${branch} already exists for issue #12`);
    expect(again.stderr).toContain('run again with --fresh');
    expect(llm.chatRequests().length).toBe(calls);
    expect(repo.git('rev-parse', branch)).toBe(first);

    llm.enqueue(...answers);
    const fresh = await runCli([...args, '--fresh', '--show-diff'], { env: env() });
    expect(fresh.code).toBe(0);
    expect(fresh.stdout).toContain('+  return a + b;');
    const second = repo.git('rev-parse', branch);
    expect(second).not.toBe(first);
    // Started over from the base: one commit on top of it, not a second one on the old branch.
    expect(repo.git('rev-parse', `${second}^`)).toBe(repo.git('rev-parse', 'HEAD'));
    expect(repo.git('branch', '--list', 'autofix/*').split('\n')).toHaveLength(1);
  });

  it('exits 1 with the reason and the artifacts folder when the run fails', async () => {
    llm.enqueue(JSON.stringify({ ...TRIAGE, risk: 'HIGH' }));
    const r = await runCli(['run', '--repo', repo.dir, '--issue', 'Rewrite everything'], {
      env: env(),
    });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('Failed in triage (RISK_TOO_HIGH)');
    expect(r.stdout).toMatch(/Artifacts: \S+/);
  });

  it('exits 2 naming the variable to set when no LLM is configured', async () => {
    const r = await runCli(['run', '--repo', repo.dir, '--issue', 'x'], {
      env: { AUTOFIX_WORKDIR: workdir },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('set OPENAI_API_KEY');
  });

  it('exits 2 on a dirty work tree, touching nothing', async () => {
    writeFileSync(join(repo.dir, 'README.md'), 'changed\n');
    const r = await runCli(['run', '--repo', repo.dir, '--issue', 'x'], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('uncommitted changes');
    expect(llm.chatRequests()).toHaveLength(0);
  });

  it('exits 2 without exactly one of --issue and --issue-file', async () => {
    const r = await runCli(['run', '--repo', repo.dir], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('exactly one of --issue-file or --issue');
  });
});
