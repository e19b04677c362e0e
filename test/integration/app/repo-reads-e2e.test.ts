/**
 * Issue #32 end to end, as an attacker with a repository would do it: the default branch holds
 * links where the worker reads — test files (the reproduce stage's examples), the agent guidance
 * (`AGENTS.md`, `CLAUDE.md`, Copilot's instructions), `.editorconfig`/`.prettierrc`,
 * `package.json`, a prompt override, a file and a folder the issue names — pointing at the
 * worker's own environment, its parent's, a file in its HOME, a file outside the worktree
 * (directly and through `..`), and at themselves; and its `setup` turns tracked test files into a
 * FIFO and a 2 GB sparse file. A maintainer runs the bot on a bug there: the real app pipeline
 * (webhook → triage → plan → reproduce → code → pr), real bubblewrap, scripted model.
 *
 * Asserted on every prompt the model received, every text GitHub got, the app's log, its Redis
 * keys and the run's artifacts: nothing of any target; the run does not hang; the links are
 * shown as what they are (their own text); and the fix still becomes a pull request.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import { createRedactor } from '../../../src/artifacts/redact.js';
import { readSettings } from '../../../src/config/env.js';
import { createLogger } from '../../../src/logger.js';
import type { AutofixServer } from '../../../src/hosts/app/start-autofix.js';
import { startFakeGitHub, type FakeGitHub } from '../../helpers/fake-github.js';
import { startFakeLlmServer, type FakeLlmServer } from '../../helpers/fake-llm-server.js';
import {
  createHostileWorld,
  leakedCanaries,
  type HostileKind,
  type HostileWorld,
} from '../../helpers/hostile-entries.js';
import { createRepo, type TestRepo } from '../../helpers/repo-builder.js';
import { FIX_DIFF, PLAN, TRIAGE } from '../../helpers/sample-repo.js';
import { deliver, generateAppKeyPair, labeledPayload } from '../../helpers/webhooks.js';
import {
  deleteKeys,
  everythingGitHubGot,
  REDIS_URL,
  SECRET,
  startPipelineApp,
  waitFor,
} from './harness.js';
import { underLoad, WAIT_MS } from '../../helpers/deadlines.js';
import { jest } from '@jest/globals';

// A hang guard for every test of this file (test/helpers/deadlines.ts).
jest.setTimeout(underLoad(180_000));

const API_KEY = 'sk-repo-reads-e2e-0123456789abcdefQZ';
const keys = generateAppKeyPair();

const MATH = 'export function add(a, b) {\n  return a - b;\n}\n';
const FIX = FIX_DIFF.replaceAll('src/math.js', 'src/math.mjs');
const REAL_EXAMPLE =
  "import assert from 'node:assert/strict';\nimport { test } from 'node:test';\n" +
  "import { add } from '../src/math.mjs';\n\ntest('add(0, 0) is 0', () => assert.equal(add(0, 0), 0));\n";

/** Where the repository plants what, committed on its default branch. */
const LINKS: [string, HostileKind][] = [
  ['test/env.test.mjs', 'proc-self-environ'],
  ['test/parent.test.mjs', 'proc-parent-environ'],
  ['test/home.test.mjs', 'home-file'],
  ['test/outside.test.mjs', 'outside-file'],
  ['test/dots.test.mjs', 'dotdot-chain'],
  ['test/loop.test.mjs', 'link-loop'],
  ['AGENTS.md', 'proc-self-environ'],
  ['CLAUDE.md', 'outside-file'],
  ['.github/copilot-instructions.md', 'home-file'],
  ['.editorconfig', 'outside-file'],
  ['.prettierrc', 'proc-self-environ'],
  ['package.json', 'outside-file'],
  ['.github/autofix/agents/code-agent.md', 'proc-self-environ'],
  ['src/settings.mjs', 'proc-self-environ'],
  ['config/secrets.json', 'dotdot-chain'],
];

/** `setup` (sandboxed, repository code) turns two tracked test files into a FIFO and 2 GB. */
const HOSTILE_SETUP = [
  "import { execFileSync } from 'node:child_process';",
  "import { rmSync, truncateSync } from 'node:fs';",
  "rmSync('test/a.test.mjs');",
  "execFileSync('mkfifo', ['test/a.test.mjs']);",
  "truncateSync('test/b.test.mjs', 2 * 1024 ** 3);",
  '',
].join('\n');

let github: FakeGitHub;
let llm: FakeLlmServer;
let app: AutofixServer;
let repo: TestRepo;
let world: HostileWorld;
let workdir: string;
let prefix: string;

afterEach(async () => {
  await app?.stop(5000).catch(() => undefined);
  await github?.close();
  await llm?.close();
  await deleteKeys(REDIS_URL, prefix);
  repo?.cleanup();
  world?.cleanup();
  rmSync(workdir, { recursive: true, force: true });
});

function hostileRepository(): TestRepo {
  const r = createRepo({
    prefix: 'autofix-hostile-repo-',
    name: 'calc',
    files: {
      'src/math.mjs': MATH,
      'test.mjs':
        "import { add } from './src/math.mjs';\nif (add(2, 3) !== 5) { console.error('FAIL add'); process.exit(1); }\n",
      'test/a.test.mjs': REAL_EXAMPLE,
      'test/b.test.mjs': REAL_EXAMPLE,
      'test/zz-real.test.mjs': REAL_EXAMPLE.replace('add(0, 0) is 0', 'the real example'),
      'hostile-setup.mjs': HOSTILE_SETUP,
      'README.md': '# calc\n',
    },
  });
  for (const [path, kind] of LINKS) world.plant(r.dir, path, kind);
  world.plant(r.dir, 'lib/secret.txt', 'linked-directory');
  r.git('add', '-A');
  r.commit('links where the bot reads');
  return r;
}

/** Every string value under the app's Redis prefix (jobs, run records, status). */
async function redisText(): Promise<string> {
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  try {
    const parts: string[] = [];
    for (const key of await redis.keys(`${prefix}*`)) {
      const type = await redis.type(key);
      if (type === 'string') parts.push((await redis.get(key)) ?? '');
      if (type === 'hash') parts.push(...Object.values(await redis.hgetall(key)));
      if (type === 'list') parts.push(...(await redis.lrange(key, 0, -1)));
      if (type === 'zset') parts.push(...(await redis.zrange(key, 0, -1)));
      if (type === 'stream') parts.push(JSON.stringify(await redis.xrange(key, '-', '+')));
    }
    return parts.join('\n');
  } finally {
    redis.disconnect();
  }
}

/** The text of every file under `dir` (the run's artifacts), links not followed. */
function filesText(dir: string): string {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => readFileSync(join(e.parentPath, e.name), 'utf8'))
    .join('\n');
}

it('nothing the links, the FIFO or the sparse file point at reaches a prompt, and the fix still lands', async () => {
  world = createHostileWorld();
  repo = hostileRepository();
  const bare = repo.bare().dir;
  github = await startFakeGitHub({ appPublicKey: keys.publicKey });
  github.setPermission('maintainer', 'write');
  github.setFile(
    '.github/autofix.yml',
    'setup:\n  - node hostile-setup.mjs\nvalidate:\n  - node test.mjs\n',
  );
  llm = await startFakeLlmServer({ apiKey: API_KEY });
  workdir = mkdtempSync(join(tmpdir(), 'autofix-repo-reads-e2e-'));
  prefix = `autofix-reads-${randomUUID().slice(0, 8)}`;
  let logText = '';
  const log = createLogger({
    level: 'debug',
    redact: createRedactor([SECRET, API_KEY]),
    destination: new Writable({
      write(chunk: Buffer, _encoding, done) {
        logText += chunk.toString();
        done();
      },
    }),
  });
  app = await startPipelineApp({
    settings: readSettings({
      OPENAI_BASE_URL: llm.baseUrl,
      OPENAI_API_KEY: API_KEY,
      AUTOFIX_WORKDIR: workdir,
      AUTOFIX_MODEL: 'scripted',
    }),
    github,
    privateKey: keys.privateKey,
    prefix,
    redact: createRedactor([SECRET, API_KEY]),
    retry: { attempts: 1, backoffMs: 50 },
    log,
  });

  const triage = { ...TRIAGE, affected_files: ['src/math.mjs'] };
  const plan = {
    ...PLAN,
    file_changes: [{ path: 'src/math.mjs', operation: 'MODIFY' }],
    validation_commands: ['node test.mjs'],
  };
  const reproduction = {
    path: 'test/issue-7-add.test.mjs',
    content:
      "import assert from 'node:assert/strict';\nimport { test } from 'node:test';\n" +
      "import { add } from '../src/math.mjs';\n\ntest('add(2, 3) is 5 (#7)', () => assert.equal(add(2, 3), 5));\n",
    command: 'node --test test/issue-7-add.test.mjs',
    test_name: 'add(2, 3) is 5 (#7)',
  };
  llm.enqueue(
    JSON.stringify(triage),
    JSON.stringify(plan),
    JSON.stringify(reproduction),
    FIX,
    JSON.stringify({ summary: 'add() now returns the sum.' }),
  );
  const res = await deliver(app.url, {
    event: 'issues',
    payload: labeledPayload({
      issueNumber: 7,
      title: 'add() returns the wrong result',
      body: 'add(2, 3) is -1. The settings are in `src/settings.mjs`, `config/secrets.json` and `lib/secret.txt`.',
      cloneUrl: bare,
    }),
    secret: SECRET,
  });
  expect(res.status).toBe(200);

  const pull = await waitFor(() => github.pulls[0], underLoad(90_000), 'the pull request');
  await waitFor(
    () => [...github.comments.values()].find((c) => c.body.includes('🚀')),
    WAIT_MS,
    'the final status comment',
  );

  const requests = llm.chatRequests();
  // triage, plan, reproducer, code, pr: every stage asked the model once.
  expect(requests).toHaveLength(5);
  const prompts = requests.map((r) => r.body.messages.map((m) => m.content).join('\n'));
  for (const [i, prompt] of prompts.entries())
    expect({ request: i, leaked: leakedCanaries(prompt, world) }).toEqual({
      request: i,
      leaked: [],
    });

  // The reproducer saw the repository's real test as its example, not a link, FIFO or 2 GB.
  const reproducer = prompts.find((p) => p.includes('You are the reproducer agent'))!;
  expect(reproducer).toContain('### test/zz-real.test.mjs');
  expect(reproducer).toContain('the real example');
  for (const path of ['test/a.test.mjs', 'test/b.test.mjs', 'test/env.test.mjs'])
    expect(reproducer).not.toContain(`### ${path}`);
  // Links are shown as what they are: their own text, never what they point at.
  expect(prompts.some((p) => p.includes('src/settings.mjs -> /proc/self/environ'))).toBe(true);
  // The repository's guidance and overrides were links: the shipped agent ran, with no guidance.
  const code = prompts.find((p) => p.includes('--- a/src/math.mjs') || p.includes('src/math.mjs'))!;
  expect(code).toBeDefined();

  // Nothing reached GitHub, the log, Redis or the run's artifacts either.
  expect(leakedCanaries(everythingGitHubGot(github), world)).toEqual([]);
  expect(leakedCanaries(logText, world)).toEqual([]);
  expect(leakedCanaries(await redisText(), world)).toEqual([]);
  expect(leakedCanaries(filesText(join(workdir, 'runs')), world)).toEqual([]);
  expect(pull.body).toContain('Fixes #7');
});
