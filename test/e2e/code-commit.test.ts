/**
 * `autofix code-commit` end to end: the built CLI in a real git project, a real `./build.sh`, and
 * the scripted OpenAI-compatible server over HTTP.
 */
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
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

const API_KEY = 'sk-test-code-commit-key-0123456789QZ';
const QUERY = 'Make the greeting say hello.';
const ROLLUP = '--- src/greeting.txt ---\nbye\n';
/** Fails unless src/greeting.txt says hello; informational stderr alone is not a failure. */
const BUILD_SH = [
  '#!/bin/sh',
  'echo "compiling" >&2',
  'if grep -q hello src/greeting.txt; then echo "build ok"; exit 0; fi',
  'echo "error: src/greeting.txt must say hello, found: $(cat src/greeting.txt)" >&2',
  'exit 1',
  '',
].join('\n');

let llm: FakeLlmServer;
let project: string;

function write(path: string, content: string): void {
  mkdirSync(dirname(join(project, path)), { recursive: true });
  writeFileSync(join(project, path), content);
}

function read(path: string): string {
  return readFileSync(join(project, path), 'utf8');
}

function git(...args: string[]): string {
  return execFileSync('git', args, { cwd: project, encoding: 'utf8' });
}

beforeEach(async () => {
  llm = await startFakeLlmServer({ apiKey: API_KEY });
  project = mkdtempSync(join(tmpdir(), 'autofix-code-commit-'));
  write('.gitignore', '/agent-config\n');
  write('agent-config/query.txt', QUERY);
  write('agent-config/codeRollup.txt', ROLLUP);
  write('src/greeting.txt', 'bye\n');
  write('build.sh', BUILD_SH);
  chmodSync(join(project, 'build.sh'), 0o755);
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '-m', 'init');
});

afterEach(async () => {
  await llm.close();
  rmSync(project, { recursive: true, force: true });
});

function codeCommit(args: string[] = [], env: Record<string, string> = {}): Promise<CliResult> {
  return runCli(['code-commit', ...args], {
    cwd: project,
    env: {
      OPENAI_API_KEY: API_KEY,
      OPENAI_BASE_URL: llm.baseUrl,
      AUTOFIX_MODEL: 'fake-model',
      ...env,
    },
  });
}

/** The single run's log folder, `logs/<start timestamp>/`. */
function logDir(): string {
  const runs = readdirSync(join(project, 'logs'));
  expect(runs).toHaveLength(1);
  expect(runs[0]).toMatch(/^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z$/);
  return join(project, 'logs', runs[0]!);
}

function logFiles(): string[] {
  return readdirSync(logDir()).sort();
}

function logText(name: string): string {
  return readFileSync(join(logDir(), name), 'utf8');
}

const userMessage = (n: number): string => llm.chatRequests()[n]!.body.messages.at(-1)!.content;
const systemMessage = (n: number): string => llm.chatRequests()[n]!.body.messages[0]!.content;

const file = (path: string, content: string): string => `^^^${path}\n${content}^^^end\n`;
const HELLO = file('src/greeting.txt', 'hello\n');

describe('autofix code-commit', () => {
  it('passes on the first try: the default prompt layout, &&& notes on stdout, complete logs', async () => {
    llm.enqueue(`&&&start\nChanged the greeting.\n&&&end\n\n${HELLO}`);
    const r = await codeCommit();

    expect(r.stderr).not.toContain('autofix code-commit:');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Changed the greeting.');
    expect(r.stdout).toMatch(/build passed after 1 query/);
    expect(read('src/greeting.txt')).toBe('hello\n');
    expect(read('llm-user-output.txt')).toBe('Changed the greeting.\n');

    const [request] = llm.chatRequests();
    expect(request!.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(request!.path).toBe('/v1/chat/completions');
    expect(request!.body.model).toBe('fake-model');
    const prompt = `${systemMessage(0)}\n${userMessage(0)}`;
    const order = [
      '## Project structure',
      '## Code modification instructions',
      '## Initial query',
      QUERY,
      ROLLUP.trim(),
    ].map((s) => prompt.indexOf(s));
    expect(order.every((at) => at >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(prompt).not.toContain('## Repair query');

    expect(logFiles()).toEqual([
      'llm-user-output.txt',
      'query-1-build.txt',
      'query-1-response.json',
      'query-1-response.txt',
      'query-1.txt',
    ]);
    expect(logText('query-1.txt')).toContain(
      '# api key: ****QZ (sent only in the Authorization header)',
    );
    expect(logText('query-1.txt')).toContain(QUERY);
    expect(logText('query-1-response.txt')).toContain('^^^src/greeting.txt');
    expect(JSON.parse(logText('query-1-response.json'))).toMatchObject({
      object: 'chat.completion',
    });
    expect(logText('query-1-build.txt')).toMatch(/exit code: 0[\s\S]*build ok[\s\S]*compiling/);
    for (const name of logFiles()) expect(logText(name)).not.toContain(API_KEY);
  });

  it('passes after repairs, showing the build output, %%% notes and only the latest replacement of each file', async () => {
    llm.enqueue(
      `%%%start\nNote one: I wrote hi.\n%%%end\n${file('notes.txt', 'v1\n')}${file('src/greeting.txt', 'hi\n')}`,
      `%%%start\nNote two.\n%%%end\n${file('notes.txt', 'v2\n')}${file('src/greeting.txt', 'hey\n')}`,
      HELLO,
    );
    const r = await codeCommit();

    expect(r.code).toBe(0);
    expect(read('src/greeting.txt')).toBe('hello\n');
    expect(read('notes.txt')).toBe('v2\n');
    expect(llm.chatRequests()).toHaveLength(3);

    expect(systemMessage(1)).toContain('## Repair query');
    const repair = userMessage(2);
    const order = [
      '## Build output',
      'must say hello, found: hey',
      'Note one: I wrote hi.',
      'Note two.',
      QUERY,
      ROLLUP.trim(),
      '--- FILE REPLACEMENT notes.txt ---',
    ].map((s) => repair.indexOf(s));
    expect(order.every((at) => at >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(repair.match(/--- FILE REPLACEMENT notes\.txt ---/g)).toHaveLength(1);
    expect(repair.match(/--- FILE REPLACEMENT src\/greeting\.txt ---/g)).toHaveLength(1);
    expect(repair).toContain('v2');
    expect(repair).not.toContain('v1');
    expect(repair).not.toContain('found: hi\n');

    expect(logFiles()).toEqual(
      [1, 2, 3].flatMap((n) => [
        `query-${n}-build.txt`,
        `query-${n}-response.json`,
        `query-${n}-response.txt`,
        `query-${n}.txt`,
      ]),
    );
    expect(logText('query-2-build.txt')).toMatch(/exit code: 1/);
    expect(logText('query-3-build.txt')).toMatch(/exit code: 0/);
  });

  it('never writes an answer the server says was cut off: the next query is told so', async () => {
    // Written, this answer would pass the build at once.
    llm.enqueue({ content: HELLO, finishReason: 'length' }, HELLO);
    const r = await codeCommit();

    expect(r.code).toBe(0);
    expect(llm.chatRequests()).toHaveLength(2);
    expect(logText('query-1-build.txt')).toContain(
      'Your previous answer was cut off at the output limit (finish_reason "length"): it stops in `src/greeting.txt`',
    );
    expect(userMessage(1)).toContain('cut off at the output limit');
    expect(read('src/greeting.txt')).toBe('hello\n');
  });

  it('with --history, accumulates every answer and build output in the --history layout', async () => {
    llm.enqueue(
      `%%%start\nNote one.\n%%%end\n${file('notes.txt', 'v1\n')}${file('src/greeting.txt', 'hi\n')}`,
      `%%%start\nNote two.\n%%%end\n${file('notes.txt', 'v2\n')}${file('src/greeting.txt', 'hey\n')}`,
      HELLO,
    );
    const r = await codeCommit(['--history', '--max-rounds', '8']);

    expect(r.code).toBe(0);
    expect(systemMessage(2)).toContain('## Repair query with history');
    const prompt = userMessage(2);
    const order = [
      QUERY,
      ROLLUP.trim(),
      'The above query was provided, and you provided the following data in your response:',
      'Note one.',
      'v1',
      'When the file replacements were made, the build provided the following output:',
      'found: hi',
      'You then provided the following data in your subsequent response:',
      'Note two.',
      'v2',
      'found: hey',
    ].map((s) => prompt.indexOf(s));
    expect(order.every((at) => at >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  it('fails after the last round with exit 1 and a log for every query and build', async () => {
    llm.enqueue(file('src/greeting.txt', 'hi\n'), file('src/greeting.txt', 'hey\n'));
    const r = await codeCommit(['--max-rounds', '1']);

    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/still failing after 2 queries/);
    expect(llm.chatRequests()).toHaveLength(2);
    expect(logFiles()).toEqual(
      [1, 2].flatMap((n) => [
        `query-${n}-build.txt`,
        `query-${n}-response.json`,
        `query-${n}-response.txt`,
        `query-${n}.txt`,
      ]),
    );
    expect(logText('query-2-build.txt')).toContain('found: hey');
    // code-commit leaves the changes for the supervisor to inspect with git.
    expect(read('src/greeting.txt')).toBe('hey\n');
  });

  it.each([['agent-config/query.txt'], ['agent-config/codeRollup.txt']])(
    'exits 2 naming %s when it is missing, before any LLM call',
    async (missing) => {
      rmSync(join(project, missing));
      const r = await codeCommit();
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`${missing} is missing`);
      expect(llm.chatRequests()).toHaveLength(0);
      expect(existsSync(join(project, 'logs'))).toBe(false);
    },
  );

  it('exits 2 when .gitignore has no /agent-config line', async () => {
    write('.gitignore', 'agent-config-old\n# /agent-config\n');
    const r = await codeCommit();
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('.gitignore has no `/agent-config` line');
    expect(llm.chatRequests()).toHaveLength(0);
  });

  it('exits 2 without OPENAI settings', async () => {
    const r = await codeCommit([], { OPENAI_API_KEY: '', OPENAI_BASE_URL: '' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('OPENAI_API_KEY');
  });

  it('writes nothing from an answer that touches build.sh and reports it like a build error', async () => {
    llm.enqueue(
      `&&&start\nAlso "fixing" the build.\n&&&end\n${HELLO}${file('build.sh', '#!/bin/sh\nexit 0\n')}`,
      HELLO,
    );
    const r = await codeCommit();

    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Also "fixing" the build.');
    expect(read('build.sh')).toBe(BUILD_SH);
    const refused = logText('query-1-build.txt');
    expect(refused).toContain('./build.sh did not run');
    expect(refused).toMatch(/PROTECTED_PATH[\s\S]*`build\.sh` is protected/);
    expect(userMessage(1)).toContain('`build.sh` is protected');
    // Nothing from the refused answer was written, so nothing is listed as replaced.
    expect(userMessage(1)).toContain('(no files changed yet)');
  });

  it('feeds a parse error back when $$$ comes with file blocks', async () => {
    llm.enqueue(`$$$start\nAll is well.\n$$$end\n${HELLO}`, HELLO);
    const r = await codeCommit();

    expect(r.code).toBe(0);
    expect(logText('query-1-build.txt')).toContain('LLM_OUTPUT_INVALID');
    expect(userMessage(1)).toContain(
      '`$$$` says no change is needed, but the answer also changes files',
    );
    expect(llm.chatRequests()).toHaveLength(2);
  });

  it('accepts $$$ alone and passes when the build already passes', async () => {
    write('src/greeting.txt', 'hello\n');
    llm.enqueue('$$$start\nThe greeting already says hello.\n$$$end\n');
    const r = await codeCommit();
    expect(r.code).toBe(0);
    expect(logText('query-1-build.txt')).toMatch(/exit code: 0/);
  });

  it('deletes a file with ^^^delete', async () => {
    write('old.txt', 'old\n');
    llm.enqueue(`^^^old.txt\n^^^delete\n${HELLO}`);
    const r = await codeCommit();
    expect(r.code).toBe(0);
    expect(existsSync(join(project, 'old.txt'))).toBe(false);
  });

  it('exits 1 when the LLM refuses the key, with the failed query logged and the key redacted', async () => {
    const wrongKey = 'sk-test-wrong-key-abcdefghijklmnXY';
    const r = await codeCommit([], { OPENAI_API_KEY: wrongKey });

    expect(r.code).toBe(1);
    expect(r.stderr).toContain('autofix code-commit: LLM endpoint');
    expect(r.stderr).not.toContain(wrongKey);
    expect(llm.chatRequests()[0]!.headers.authorization).toBe(`Bearer ${wrongKey}`);
    expect(logFiles()).toEqual(['query-1-response.json', 'query-1-response.txt', 'query-1.txt']);
    expect(logText('query-1.txt')).toContain('# api key: ****XY');
    for (const name of logFiles()) expect(logText(name)).not.toContain(wrongKey);
    expect(read('src/greeting.txt')).toBe('bye\n');
  });

  it('redacts the API key printed by the build in every log and prompt', async () => {
    write('build.sh', `#!/bin/sh\necho "token is ${API_KEY}" >&2\nexit 1\n`);
    llm.enqueue(HELLO, HELLO);
    const r = await codeCommit(['--max-rounds', '1']);

    expect(r.code).toBe(1);
    expect(logText('query-1-build.txt')).toContain('token is ****QZ');
    for (const name of logFiles()) expect(logText(name)).not.toContain(API_KEY);
    expect(userMessage(1)).toContain('token is ****QZ');
    for (const request of llm.chatRequests()) {
      expect(request.rawBody).not.toContain(API_KEY);
      expect(request.path).not.toContain(API_KEY);
    }
  });
});
