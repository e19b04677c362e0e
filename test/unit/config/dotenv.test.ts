import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import { loadDotEnv, parseDotEnv, updateDotEnv } from '../../../src/config/dotenv.js';
import { readEnvironment } from '../../../src/config/read-environment.js';
import { AutofixError } from '../../../src/errors.js';

const PEM =
  '-----BEGIN RSA PRIVATE KEY-----\nMIIBOgIBAAJBAKj34GkxFhD90vcNLYLInFEX6Ppy1tPf9Cnzj4p4WGeKLs1Pt8Qu\n-----END RSA PRIVATE KEY-----';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'autofix-dotenv-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function values(text: string): Record<string, string> {
  return Object.fromEntries([...parseDotEnv(text).entries].map(([k, e]) => [k, e.value]));
}

function problemsOf(fn: () => unknown): string[] {
  try {
    fn();
  } catch (err) {
    if (err instanceof AutofixError) return (err.details as { problems: string[] }).problems;
    throw err;
  }
  throw new Error('expected an error');
}

describe('parseDotEnv', () => {
  it.each([
    'A=1\nB=two words\n',
    'export A=1',
    ' A = spaced  ',
    'A=a #comment\nB=x#y',
    'A="x\\ny"\nB=\'x\\ny\'\nC=`tick`',
    'A="multi\nline"\nB=2',
    'A="x#y" # c',
    "A=x=y\r\nB=\r\nC=''",
    '# comment\n\n# another\nA.B-C=1',
    `PRIVATE_KEY="${PEM.replace(/\n/g, '\\n')}"\nAPP_ID=1`,
  ])('reads a valid file as node:util parseEnv does: %j', (text) => {
    expect(parseDotEnv(text).problems).toEqual([]);
    expect(values(text)).toEqual(parseEnv(text));
  });

  it('reports a private key pasted over several lines without quotes, and still reads what follows', () => {
    const text = `APP_ID=12\nPRIVATE_KEY=${PEM}\nWEBHOOK_SECRET=s\n`;
    const file = parseDotEnv(text);
    expect(file.problems.map((p) => p.line)).toEqual([3, 4]);
    expect(file.problems[0]!.message).toMatch(/rest of PRIVATE_KEY's value.*double quotes/);
    expect(file.problems[0]!.message).toContain('PRIVATE_KEY_PATH');
    // parseEnv merged the stray lines into the next key and lost WEBHOOK_SECRET; we keep it.
    expect(parseEnv(text)).not.toHaveProperty('WEBHOOK_SECRET');
    expect(values(text)).toMatchObject({ APP_ID: '12', WEBHOOK_SECRET: 's' });
  });

  it('reports any other line that is not KEY=VALUE, and a quote never closed', () => {
    expect(parseDotEnv('A=1\nhello').problems[0]!.message).toMatch(/^is not KEY=VALUE \(nor/);
    const file = parseDotEnv('A=1\nthis is not a setting\nB="open\nC=3');
    expect(file.problems).toEqual([
      { line: 2, message: expect.stringMatching(/not KEY=VALUE.*start it with #/) as string },
      { line: 3, key: 'B', message: expect.stringMatching(/closing "/) as string },
    ]);
    expect(values('A=1\nB="open\nC=3')).toMatchObject({ A: '1', C: '3' });
  });
});

describe('loadDotEnv', () => {
  it('lets the real environment win, an empty value counting as unset, and records lines', () => {
    const path = join(dir, '.env');
    writeFileSync(path, 'A=file\nB=file\nC=file\n');
    const env: Record<string, string | undefined> = { A: 'real', B: '' };
    const load = loadDotEnv(path, env);
    expect(env).toEqual({ A: 'real', B: 'file', C: 'file' });
    expect([...load.lines]).toEqual([
      ['B', 2],
      ['C', 3],
    ]);
  });
});

describe('readEnvironment', () => {
  it("reports every problem of .env at once, each with the fix and the file's line", () => {
    const path = join(dir, '.env');
    writeFileSync(
      path,
      [
        '# Autofix',
        'PORT=abc',
        'LOG_LEVEL=loud',
        `PRIVATE_KEY=${PEM}`,
        'APP_ID=12a',
        'REDIS_URL=http://localhost:6379',
      ].join('\n'),
    );
    const problems = problemsOf(() => readEnvironment({ AUTOFIX_ENV_FILE: path, HOST: 'x' }));
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(new RegExp(`^${path}, line 5: .*PRIVATE_KEY's value`)),
        expect.stringMatching(new RegExp(`^${path}, line 6: `)),
        expect.stringMatching(/^PORT: must be a port number .*\(set in .*\.env, line 2\)$/),
        expect.stringMatching(/^LOG_LEVEL: must be one of trace, .*\(set in .*\.env, line 3\)$/),
        expect.stringMatching(/^APP_ID: must be the App's numeric ID.*\(set in .*\.env, line 7\)$/),
        expect.stringMatching(/^REDIS_URL: must use redis: .*\(set in .*\.env, line 8\)$/),
        expect.stringMatching(/^PRIVATE_KEY: holds the first line of a key only.*line 4\)$/),
      ]),
    );
    expect(problems).toHaveLength(7);
  });

  it('keeps the file it read as the env file, whatever the file says of AUTOFIX_ENV_FILE', () => {
    const path = join(dir, 'app.env');
    writeFileSync(path, `AUTOFIX_ENV_FILE=${join(dir, 'other.env')}\n`);
    expect(readEnvironment({ AUTOFIX_ENV_FILE: path }).envFile).toBe(path);
  });

  it('says nothing of .env for a value the real environment gave', () => {
    writeFileSync(join(dir, '.env'), 'PORT=1\n');
    const problems = problemsOf(() =>
      readEnvironment({ AUTOFIX_ENV_FILE: join(dir, '.env'), PORT: 'x' }),
    );
    expect(problems).toEqual(['PORT: must be a port number 1-65535 (got "x")']);
  });
});

describe('updateDotEnv', () => {
  it('replaces the keys it sets, keeps every other line, and is readable by its owner only', () => {
    const path = join(dir, 'config', '.env');
    updateDotEnv(path, { REDIS_URL: 'redis://x' });
    writeFileSync(path, '# mine\nAPP_ID=\nPRIVATE_KEY="old\nkey"\nOPENAI_API_KEY=k\n');
    // As Probot's setup flow hands them over: the key already in double quotes.
    updateDotEnv(path, { APP_ID: '42', PRIVATE_KEY: `"${PEM}"`, WEBHOOK_SECRET: 'w' });
    const text = readFileSync(path, 'utf8');
    expect(text.split('\n').slice(0, 2)).toEqual(['# mine', 'OPENAI_API_KEY=k']);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const env: Record<string, string | undefined> = {};
    expect(loadDotEnv(path, env).problems).toEqual([]);
    expect(env).toEqual({
      OPENAI_API_KEY: 'k',
      APP_ID: '42',
      PRIVATE_KEY: PEM,
      WEBHOOK_SECRET: 'w',
    });
  });
});
