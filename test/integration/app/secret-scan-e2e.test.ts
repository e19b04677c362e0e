/**
 * Issue #32 end to end, through the real app pipeline (webhook → triage → plan → code): the
 * scripted model writes credentials into a file with an otherwise good fix — the run's own LLM
 * key, its base64, a GitHub token, an AWS key pair and an RSA private key. The change is scanned
 * before the code stage commits and keeps it, so the run stops with `SECRET_IN_CHANGE`: the
 * issue's failure comment names each file, line and rule and no value, the bare remote gets no
 * ref at all, and no Redis value, log line or file the app left holds a value. A realistic
 * change that only mentions a key (`API_KEY = process.env.API_KEY`) still becomes a PR.
 */
import { generateKeyPairSync } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import { createLogger } from '../../../src/logger.js';
import { PLAN, PR_SUMMARY, TRIAGE } from '../../helpers/sample-repo.js';
import { generateAppKeyPair, labeledPayload } from '../../helpers/webhooks.js';
import { REDIS_URL, startPipelineEnv, waitFor, type PipelineEnv } from './harness.js';
import { underLoad } from '../../helpers/deadlines.js';
import { jest } from '@jest/globals';

// A hang guard for every test of this file (test/helpers/deadlines.ts).
jest.setTimeout(underLoad(120_000));

const keys = generateAppKeyPair();
const CONFIG = 'reproduce: off\nvalidate:\n  - node test.js\n';

/** Made up here, in the formats the rule set knows; none is a real credential. */
const GITHUB_TOKEN = `ghp_${'R8mZ2qX7vN4kT1pL9sW3'}bY6cH0jF5dG2aE8u`;
const AWS_ID = `AKIA${'ZT4M7QW2NX5RLP8K'}`;
const AWS_SECRET = `Hq7mZ2vX9kN4tR1pL6sW3bY8cF0jD5gA${'2eU7iO4y'}`;
const RSA_KEY = generateKeyPairSync('rsa', { modulusLength: 1024 })
  .privateKey.export({ type: 'pkcs1', format: 'pem' })
  .toString()
  .trimEnd();

/** A udiff of `src/math.js` that fixes add() and appends `lines` (the plan's one file). */
function fixAndAppend(lines: string[]): string {
  return [
    '--- a/src/math.js',
    '+++ b/src/math.js',
    `@@ -1,7 +1,${7 + lines.length} @@`,
    ' export function add(a, b) {',
    '-  return a - b;',
    '+  return a + b;',
    ' }',
    ' ',
    ' export function double(x) {',
    '   return x * 2;',
    ' }',
    ...lines.map((l) => `+${l}`),
    '',
  ].join('\n');
}

/** Every string value under the app's Redis prefix, whatever the key's type. */
async function redisValues(prefix: string): Promise<string> {
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  try {
    const out: string[] = [];
    let cursor = '0';
    do {
      const [next, found] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      for (const key of found) {
        const type = await redis.type(key);
        if (type === 'string') out.push((await redis.get(key)) ?? '');
        else if (type === 'hash') out.push(JSON.stringify(await redis.hgetall(key)));
        else if (type === 'list') out.push(...(await redis.lrange(key, 0, -1)));
        else if (type === 'set') out.push(...(await redis.smembers(key)));
        else if (type === 'zset') out.push(...(await redis.zrange(key, 0, -1)));
        else if (type === 'stream') out.push(JSON.stringify(await redis.xrange(key, '-', '+')));
      }
    } while (cursor !== '0');
    return out.join('\n');
  } finally {
    redis.disconnect();
  }
}

/** The text of every regular file under `dir` (git's loose objects are compressed: no commit
 * was made, so none holds the change). */
function filesText(dir: string): string {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    if (entry.isFile() && statSync(path).size < 5_000_000) out.push(readFileSync(path, 'latin1'));
  }
  return out.join('\n');
}

let env: PipelineEnv | undefined;
let logText = '';
afterEach(async () => {
  await env?.close();
  env = undefined;
});

async function start(name: string): Promise<PipelineEnv> {
  logText = '';
  const destination = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      logText += chunk.toString();
      done();
    },
  });
  env = await startPipelineEnv({
    keys,
    name,
    config: CONFIG,
    // Everything the app logs, down to debug: what an operator's log would hold at most.
    log: createLogger({ level: 'debug', destination }),
  });
  return env;
}

it('stops a change that adds credentials before anything reaches the remote, naming file:line and rule, never a value', async () => {
  const e = await start('secret-scan-e2e');
  const base64Key = Buffer.from(`OPENAI_API_KEY=${e.apiKey}`).toString('base64');
  const lines = [
    '// Connection settings for the calculator service.',
    `export const openaiKey = '${e.apiKey}';`,
    `export const encoded = '${base64Key}';`,
    `export const githubToken = '${GITHUB_TOKEN}';`,
    `export const aws = { aws_access_key_id: '${AWS_ID}', aws_secret_access_key: '${AWS_SECRET}' };`,
    `export const deployKey = \`${RSA_KEY}\`;`,
  ];
  const values = [
    e.apiKey,
    base64Key,
    GITHUB_TOKEN,
    AWS_ID,
    AWS_SECRET,
    ...RSA_KEY.split('\n').filter((l) => l.length === 64),
  ];
  e.llm.enqueue(
    JSON.stringify(TRIAGE),
    JSON.stringify(PLAN),
    fixAndAppend(lines.join('\n').split('\n')),
  );
  const refsBefore = e.git('for-each-ref', '--format=%(refname) %(objectname)');
  await e.send(
    'issues',
    labeledPayload({ issueNumber: 41, title: 'add() returns the wrong result', cloneUrl: e.bare }),
  );
  const failure = await waitFor(
    () => [...e.github.comments.values()].find((c) => c.body.includes('Autofix failed during')),
    underLoad(60_000),
    'the failure comment',
  );
  await e.runsEnded();

  // The comment says what, where and which rule; what to do next; never a value.
  expect(failure.body).toContain('`SECRET_IN_CHANGE`');
  expect(failure.body).toContain('**code** stage');
  for (const [line, rule] of [
    [9, "this run's secret (a secret)"],
    [10, "this run's secret (base64 of a secret)"],
    [11, 'github: GITHUB_TOKEN'],
    [12, 'aws: AWSAccessKeyID'],
    [13, 'privatekey: PrivateKey'],
  ] as const) {
    expect(failure.body).toContain(`src/math.js:${line}`);
    expect(failure.body).toContain(rule);
  }
  expect(failure.body).toMatch(/revoke it/);

  // Nothing reached the remote: no branch, no private ref, main untouched.
  expect(e.git('for-each-ref', '--format=%(refname) %(objectname)')).toBe(refsBefore);
  expect(e.github.pulls).toHaveLength(0);

  // No value anywhere: GitHub (every version of every comment, every request), Redis, the log,
  // the app's files (mirrors, job folders).
  const github = [
    ...[...e.github.comments.values()].flatMap((c) => c.history),
    ...e.github.calls('POST', /./).map((r) => JSON.stringify(r.body)),
    ...e.github.calls('PATCH', /./).map((r) => JSON.stringify(r.body)),
  ].join('\n');
  const places = {
    github,
    redis: await redisValues(e.prefix),
    log: logText,
    files: filesText(e.workdir),
  };
  expect(places.log).toContain('SECRET_IN_CHANGE');
  for (const [place, text] of Object.entries(places)) {
    for (const value of values)
      expect({ place, holds: text.includes(value) }).toEqual({ place, holds: false });
  }
});

it('lets a realistic change that only names a key or holds a placeholder become a pull request', async () => {
  const e = await start('secret-scan-ok-e2e');
  const lines = [
    '',
    '// The service reads its key from the environment; never commit a real one.',
    'const API_KEY = process.env.API_KEY;',
    "export const config = { apiKey: API_KEY ?? '<your-api-key>', tokenKey: 'calc_session_token' };",
    "export const example = 'OPENAI_API_KEY=sk-...';",
    'export const total = 5;',
  ];
  e.llm.enqueue(
    JSON.stringify(TRIAGE),
    JSON.stringify(PLAN),
    fixAndAppend(lines),
    JSON.stringify(PR_SUMMARY),
  );
  await e.send(
    'issues',
    labeledPayload({ issueNumber: 42, title: 'add() returns the wrong result', cloneUrl: e.bare }),
  );
  const pull = await waitFor(() => e.github.pulls[0], underLoad(60_000), 'the pull request');
  expect(pull.body).toContain('Fixes #42');
  const bodies = [...e.github.comments.values()].flatMap((c) => c.history).join('\n');
  expect(bodies).not.toContain('SECRET_IN_CHANGE');
  await e.runsEnded();
});
