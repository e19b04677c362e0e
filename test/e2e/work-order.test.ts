/**
 * `autofix work-order` end to end: the built CLI on a real git repository, real acceptance and
 * verification commands, and the scripted OpenAI-compatible server over HTTP.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { runCli, type CliResult } from '../helpers/cli.js';
import { startFakeLlmServer, type FakeLlmServer } from '../helpers/fake-llm-server.js';

const API_KEY = 'sk-test-work-order-key-0123456789WK';
const EMPTY_SHA = createHash('sha256').update('').digest('hex');
const sha = (text: string): string => createHash('sha256').update(text).digest('hex');

const ORDER = {
  id: 'WO-7',
  title: 'Say hello',
  intent: 'greeting.txt must say hello.',
  allowed_files: ['greeting.txt', 'extra.txt'],
  forbidden: ['Do not change the acceptance commands.'],
  acceptance_commands: ['grep -q hello greeting.txt'],
  context_files: ['greeting.txt'],
  notes: 'Keep it short.',
};

let llm: FakeLlmServer;
let root: string;
let repo: string;
let out: string;

function write(path: string, content: string): void {
  mkdirSync(dirname(join(repo, path)), { recursive: true });
  writeFileSync(join(repo, path), content);
}

function git(...args: string[]): string {
  return execFileSync('git', args, { cwd: repo, encoding: 'utf8' });
}

function commitAll(): void {
  git('add', '-A');
  git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '-m', 'baseline');
}

beforeEach(async () => {
  llm = await startFakeLlmServer({ apiKey: API_KEY });
  root = mkdtempSync(join(tmpdir(), 'autofix-work-order-'));
  repo = join(root, 'product');
  out = join(root, 'out');
  mkdirSync(repo);
  git('init', '-q', '-b', 'main');
  write('greeting.txt', 'bye\n');
  commitAll();
});

afterEach(async () => {
  await llm.close();
  rmSync(root, { recursive: true, force: true });
});

function workOrder(
  order: Record<string, unknown> = ORDER,
  args: string[] = [],
  env: Record<string, string> = {},
): Promise<CliResult> {
  const file = join(root, 'order.json');
  writeFileSync(file, JSON.stringify(order, null, 2));
  return runCli(
    [
      'work-order',
      '--repo',
      repo,
      '--work-order',
      file,
      '--out',
      out,
      '--llm-model',
      'fake-model',
      ...args,
    ],
    { env: { OPENAI_API_KEY: API_KEY, OPENAI_BASE_URL: llm.baseUrl, ...env } },
  );
}

const proposal = (writes: { path: string; content: string; base?: string }[]): string =>
  JSON.stringify({
    summary: 'Proposed change.',
    writes: writes.map((w) => ({
      path: w.path,
      base_sha256: w.base ?? sha('bye\n'),
      content: w.content,
    })),
  });

const HELLO = proposal([{ path: 'greeting.txt', content: 'hello\n' }]);

function summaryPath(r: CliResult): string {
  const match = /^run_summary: (.+)$/m.exec(r.stdout);
  expect(match).not.toBeNull();
  return match![1]!;
}

interface Summary {
  run_id: string;
  verdict: string;
  baseline_commit: string;
  repo_tree_hash_after: string | null;
  attempts: {
    attempt_index: number;
    proposal_path: string | null;
    touched_files: string[];
    write_ok: boolean;
    rolled_back: boolean;
    acceptance: { command: string[]; exit_code: number; timed_out: boolean; stderr_path: string }[];
    failure_brief: { stage: string; command: string | null; exit_code: number | null } | null;
  }[];
  failure_brief: { stage: string; primary_error_excerpt: string } | null;
}

function summary(r: CliResult): Summary {
  return JSON.parse(readFileSync(summaryPath(r), 'utf8')) as Summary;
}

function artifact(r: CliResult, path: string): string {
  return readFileSync(join(dirname(summaryPath(r)), path), 'utf8');
}

const userMessage = (n: number): string => llm.chatRequests()[n]!.body.messages.at(-1)!.content;

function expectBaseline(): void {
  expect(git('status', '--porcelain', '--untracked-files=all')).toBe('');
  expect(readFileSync(join(repo, 'greeting.txt'), 'utf8')).toBe('bye\n');
}

describe('autofix work-order', () => {
  it('passes on the first try, leaves the change uncommitted and records the tree hash', async () => {
    const head = git('rev-parse', 'HEAD').trim();
    llm.enqueue(HELLO);
    const r = await workOrder();

    expect(r.stderr).not.toContain('autofix work-order:');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('verdict: PASS');
    const s = summary(r);
    expect(summaryPath(r)).toBe(join(out, s.run_id, 'run_summary.json'));
    expect(s.run_id).toMatch(/^run-[0-9a-f]{16}$/);
    expect(s.verdict).toBe('PASS');
    expect(s.baseline_commit).toBe(head);
    expect(s.attempts).toHaveLength(1);
    expect(s.attempts[0]).toMatchObject({
      proposal_path: 'attempt_1/proposed_writes.json',
      touched_files: ['greeting.txt'],
      write_ok: true,
      failure_brief: null,
      rolled_back: false,
    });

    // Uncommitted, and the recorded tree is exactly the work tree's.
    expect(git('rev-parse', 'HEAD').trim()).toBe(head);
    expect(git('status', '--porcelain')).toBe(' M greeting.txt\n');
    git('add', '-A');
    expect(s.repo_tree_hash_after).toBe(git('write-tree').trim());

    const dir = join(out, s.run_id, 'attempt_1');
    expect(readdirSync(dir).sort()).toEqual([
      'acceptance_1.stderr.txt',
      'acceptance_1.stdout.txt',
      'acceptance_result.json',
      'proposed_writes.json',
      'se_prompt.txt',
      'se_response.txt',
      'verify_result.json',
      'write_result.json',
    ]);
    expect(JSON.parse(artifact(r, 'attempt_1/proposed_writes.json'))).toEqual(JSON.parse(HELLO));
    expect(JSON.parse(artifact(r, 'attempt_1/write_result.json'))).toMatchObject({
      write_ok: true,
      touched_files: ['greeting.txt'],
    });

    const prompt = userMessage(0);
    expect(prompt).toContain('greeting.txt must say hello.');
    expect(prompt).toContain(`greeting.txt: ${sha('bye\n')}`);
    expect(prompt).toContain(`extra.txt: does not exist yet (${EMPTY_SHA})`);
    expect(prompt).toContain('Do not change the acceptance commands.');
    expect(prompt).toMatch(/### greeting.txt\s+```+\nbye\n```/);
    expect(llm.chatRequests()[0]!.body.model).toBe('fake-model');
    expect(llm.chatRequests()[0]!.body.temperature).toBe(0);
  });

  it('passes after a failed attempt: rolled back to the baseline, FailureBrief in the next prompt', async () => {
    write('scripts/verify.sh', 'test -f greeting.txt\n');
    commitAll();
    llm.enqueue(
      proposal([
        { path: 'greeting.txt', content: 'hi\n' },
        { path: 'extra.txt', content: 'created\n', base: EMPTY_SHA },
      ]),
      (req) => {
        // The second attempt starts from the baseline: the hashes are the baseline's again.
        expect(req.body.messages.at(-1)!.content).toContain(`greeting.txt: ${sha('bye\n')}`);
        expect(existsSync(join(repo, 'extra.txt'))).toBe(false);
        return HELLO;
      },
    );
    const r = await workOrder();

    expect(r.code).toBe(0);
    const s = summary(r);
    expect(s.attempts.map((a) => a.failure_brief?.stage ?? 'pass')).toEqual([
      'acceptance_failed',
      'pass',
    ]);
    expect(s.attempts[0]!.rolled_back).toBe(true);
    expect(JSON.parse(artifact(r, 'attempt_1/failure_brief.json'))).toMatchObject({
      stage: 'acceptance_failed',
      command: 'grep -q hello greeting.txt',
      exit_code: 1,
    });
    expect(JSON.parse(artifact(r, 'attempt_1/verify_result.json'))).toMatchObject({
      ok: true,
      results: [{ command: ['bash', 'scripts/verify.sh'], exit_code: 0 }],
    });
    const brief = userMessage(1);
    expect(brief).toContain('"stage": "acceptance_failed"');
    expect(brief).toContain('"command": "grep -q hello greeting.txt"');
    expect(brief).toContain('Write only these files: greeting.txt, extra.txt.');
    expect(existsSync(join(repo, 'extra.txt'))).toBe(false);
  });

  it('fails after the last attempt with exit 1, the tree rolled back and every artifact written', async () => {
    llm.enqueue(
      proposal([
        { path: 'greeting.txt', content: 'hi\n' },
        { path: 'extra.txt', content: 'x\n', base: EMPTY_SHA },
      ]),
      proposal([{ path: 'greeting.txt', content: 'hey\n' }]),
    );
    const r = await workOrder(ORDER, ['--max-attempts', '2']);

    expect(r.code).toBe(1);
    expect(r.stdout).toContain('verdict: FAIL');
    expectBaseline();
    const s = summary(r);
    expect(s.verdict).toBe('FAIL');
    expect(s.repo_tree_hash_after).toBeNull();
    expect(s.failure_brief?.stage).toBe('acceptance_failed');
    expect(s.attempts.map((a) => [a.failure_brief?.stage, a.rolled_back])).toEqual([
      ['acceptance_failed', true],
      ['acceptance_failed', true],
    ]);
    for (const n of [1, 2]) {
      for (const name of [
        'proposed_writes.json',
        'write_result.json',
        'verify_result.json',
        'acceptance_result.json',
        'failure_brief.json',
        'acceptance_1.stdout.txt',
        'acceptance_1.stderr.txt',
      ])
        expect(existsSync(join(out, s.run_id, `attempt_${n}`, name))).toBe(true);
    }

    // Same inputs, same run id (no random ids): a rerun replaces the artifacts.
    llm.enqueue(HELLO);
    const again = await workOrder(ORDER, ['--max-attempts', '2']);
    expect(again.code).toBe(0);
    expect(summary(again).run_id).toBe(s.run_id);
    expect(existsSync(join(out, s.run_id, 'attempt_2'))).toBe(false);
  });

  it('refuses stale base_sha256: nothing written, stage stale_context', async () => {
    llm.enqueue(
      proposal([{ path: 'greeting.txt', content: 'hello\n', base: sha('old\n') }]),
      HELLO,
    );
    const r = await workOrder();

    expect(r.code).toBe(0);
    const s = summary(r);
    expect(s.attempts[0]!.failure_brief?.stage).toBe('stale_context');
    expect(s.attempts[0]!.write_ok).toBe(false);
    expect(JSON.parse(artifact(r, 'attempt_1/write_result.json'))).toMatchObject({
      write_ok: false,
      written_files: [],
    });
    expect(JSON.parse(artifact(r, 'attempt_1/acceptance_result.json'))).toMatchObject({
      skipped: true,
    });
    expect(userMessage(1)).toContain('"stage": "stale_context"');
    expect(userMessage(1)).toContain('has changed since it was read');
  });

  it('never writes an answer the server says was cut off (finish_reason "length"), even one that parses', async () => {
    llm.enqueue({ content: HELLO, finishReason: 'length' }, HELLO);
    const r = await workOrder();

    expect(r.code).toBe(0);
    const s = summary(r);
    expect(s.attempts[0]!.failure_brief?.stage).toBe('llm_output_invalid');
    expect(s.attempts[0]!.write_ok).toBe(false);
    expect(userMessage(1)).toContain(
      'Your previous answer was cut off at the output limit (finish_reason \\"length\\")',
    );
    expect(s.attempts).toHaveLength(2);
  });

  it('refuses a write outside allowed_files: nothing written, stage write_scope_violation', async () => {
    llm.enqueue(
      proposal([
        { path: 'greeting.txt', content: 'hello\n' },
        { path: 'other.txt', content: 'sneaky\n', base: EMPTY_SHA },
      ]),
      proposal([{ path: 'greeting.txt', content: 'hi\n' }]),
    );
    const r = await workOrder();

    expect(r.code).toBe(1);
    expectBaseline();
    const s = summary(r);
    expect(s.attempts[0]!.failure_brief?.stage).toBe('write_scope_violation');
    expect(s.attempts[0]!.touched_files).toEqual(['greeting.txt', 'other.txt']);
    expect(userMessage(1)).toContain('other.txt');
  });

  it('refuses an answer that is not a WriteProposal: stage llm_output_invalid', async () => {
    llm.enqueue('Sure! Here is the change: greeting.txt now says hello.', HELLO);
    const r = await workOrder();

    expect(r.code).toBe(0);
    const s = summary(r);
    expect(s.attempts[0]).toMatchObject({
      proposal_path: null,
      failure_brief: { stage: 'llm_output_invalid' },
    });
    expect(existsSync(join(out, s.run_id, 'attempt_1', 'proposed_writes.json'))).toBe(false);
  });

  it('counts a failed LLM call as a failed attempt (stage exception) and tries again', async () => {
    llm.enqueue({ status: 400 }, HELLO);
    const r = await workOrder();

    expect(r.code).toBe(0);
    const s = summary(r);
    expect(s.attempts.map((a) => [a.failure_brief?.stage ?? 'pass', a.rolled_back])).toEqual([
      ['exception', true],
      ['pass', false],
    ]);
    expect(s.attempts[0]).toMatchObject({ proposal_path: null, write_ok: false });
    // The prompt is on record, the missing answer is not; every result file is written.
    expect(readdirSync(join(out, s.run_id, 'attempt_1')).sort()).toEqual([
      'acceptance_result.json',
      'failure_brief.json',
      'se_prompt.txt',
      'verify_result.json',
      'write_result.json',
    ]);
    expect(JSON.parse(artifact(r, 'attempt_1/write_result.json'))).toEqual({
      write_ok: false,
      touched_files: [],
      written_files: [],
      errors: [],
    });
    expect(JSON.parse(artifact(r, 'attempt_1/failure_brief.json'))).toMatchObject({
      stage: 'exception',
    });
    expect(artifact(r, 'attempt_1/failure_brief.json')).toContain('LLM call failed');
    expect(userMessage(1)).toContain('"stage": "exception"');
  });

  it('kills a command at --timeout-seconds and fails the attempt', async () => {
    llm.enqueue(HELLO);
    const r = await workOrder({ ...ORDER, acceptance_commands: ['sleep 30'] }, [
      '--max-attempts',
      '1',
      '--timeout-seconds',
      '1',
    ]);

    expect(r.code).toBe(1);
    const [attempt] = summary(r).attempts;
    expect(attempt!.acceptance[0]).toMatchObject({ command: ['sleep', '30'], timed_out: true });
    expect(attempt!.failure_brief?.stage).toBe('acceptance_failed');
    expectBaseline();
  });

  it('redacts the API key printed by the global verification in every artifact and prompt', async () => {
    write('scripts/verify.sh', `echo "key=${API_KEY}"\nexit 3\n`);
    commitAll();
    llm.enqueue(HELLO, HELLO);
    const r = await workOrder();

    expect(r.code).toBe(1);
    const s = summary(r);
    expect(s.attempts[0]!.failure_brief).toMatchObject({ stage: 'verify_failed', exit_code: 3 });
    expect(artifact(r, 'attempt_1/verify_1.stdout.txt')).toBe('key=****WK\n');
    const files = readdirSync(join(out, s.run_id), { recursive: true, withFileTypes: true });
    for (const f of files.filter((e) => e.isFile()))
      expect(readFileSync(join(f.parentPath, f.name), 'utf8')).not.toContain(API_KEY);
    expect(userMessage(1)).toContain('key=****WK');
    expect(userMessage(1)).not.toContain(API_KEY);
  });

  it('exits 2 on an invalid work order before anything runs', async () => {
    const r = await workOrder({
      ...ORDER,
      allowed_files: ['greeting.txt', '/etc/passwd', '../outside.txt', 'src/*.ts'],
      acceptance_commands: [],
      context_files: ['secret.txt'],
      extra: true,
    });

    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Invalid work order');
    for (const text of [
      'allowed_files[1]',
      'allowed_files[2]',
      'no glob patterns',
      'acceptance_commands: must list at least one command',
      'context_files[0]: "secret.txt" is not in allowed_files',
      'unknown key "extra"',
    ])
      expect(r.stderr).toContain(text);
    expect(llm.chatRequests()).toHaveLength(0);
    expect(existsSync(out)).toBe(false);
  });

  it('exits 2 on an acceptance command that needs a shell, or a missing work order file', async () => {
    const shell = await workOrder({ ...ORDER, acceptance_commands: ['npm test && rm -rf /'] });
    expect(shell.code).toBe(2);
    expect(shell.stderr).toContain('acceptance_commands[0]');
    expect(shell.stderr).toContain('shell operator');

    const missing = await runCli(
      ['work-order', '--repo', repo, '--work-order', join(root, 'nope.json'), '--out', out],
      { env: { OPENAI_API_KEY: API_KEY, OPENAI_BASE_URL: llm.baseUrl } },
    );
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('cannot read the file');
    expect(llm.chatRequests()).toHaveLength(0);
  });

  it('exits 2 on a dirty tree (preflight) and touches nothing', async () => {
    write('untracked.txt', 'mine\n');
    const r = await workOrder();

    expect(r.code).toBe(2);
    expect(r.stdout).toContain('verdict: FAIL');
    expect(summary(r).failure_brief?.stage).toBe('preflight');
    expect(summary(r).failure_brief?.primary_error_excerpt).toContain('untracked.txt');
    expect(readFileSync(join(repo, 'untracked.txt'), 'utf8')).toBe('mine\n');
    expect(llm.chatRequests()).toHaveLength(0);
  });

  it('exits 2 without OPENAI settings', async () => {
    const r = await workOrder(ORDER, [], { OPENAI_API_KEY: '', OPENAI_BASE_URL: '' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('OPENAI_API_KEY');
  });
});
