/**
 * The refusals of `clearStartupEnvironment`, with `/proc/self` replaced by files the test
 * controls (the real overwrite is tested on the compiled CLI, test/e2e/proc-environ.test.ts).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  clearStartupEnvironment,
  type ProcSelf,
} from '../../../src/config/clear-startup-environment.js';
import { AutofixError } from '../../../src/errors.js';

const SECRET = 'sk-startup-secret-0123456789';
const BLOCK = `PATH=/usr/bin\0OPENAI_API_KEY=${SECRET}\0HOME=/root\0`;

function errorOf(fn: () => unknown): AutofixError {
  try {
    fn();
  } catch (err) {
    if (err instanceof AutofixError) return err;
    throw err;
  }
  throw new Error('expected an error');
}

describe('clearStartupEnvironment', () => {
  let dir: string;
  let proc: ProcSelf;
  const holdsSecret = (text: string): boolean => text.includes(SECRET);

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'autofix-proc-self-'));
    // Our own stat line with a block range the size of the fake block.
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const head = stat.slice(0, stat.lastIndexOf(')') + 2);
    const fields = stat.slice(head.length).trim().split(' ');
    fields[50 - 3] = '4096';
    fields[51 - 3] = String(4096 + Buffer.byteLength(BLOCK));
    writeFileSync(join(dir, 'stat'), `${head}${fields.join(' ')}\n`);
    writeFileSync(join(dir, 'environ'), BLOCK);
    proc = { stat: join(dir, 'stat'), environ: join(dir, 'environ'), mem: join(dir, 'mem') };
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('fails closed, naming the variable and the fix, when the memory cannot be written', () => {
    mkdirSync(proc.mem); // opening a directory for writing fails, like a read-only /proc
    const env: Record<string, string | undefined> = { OPENAI_API_KEY: SECRET, PATH: '/usr/bin' };
    const err = errorOf(() =>
      clearStartupEnvironment({ env, names: ['OPENAI_API_KEY'], holdsSecret, proc }),
    );
    expect(err.code).toBe('CONFIG_INVALID');
    expect(err.message).toContain('Secrets in the start-up environment (OPENAI_API_KEY)');
    expect(err.message).toContain('it cannot be written');
    expect(err.message).toContain('OPENAI_API_KEY_FILE');
    expect(err.message).not.toContain(SECRET);
    // Gone from process.env all the same: no child inherits it.
    expect(env.OPENAI_API_KEY).toBeUndefined();
    expect(env.PATH).toBe('/usr/bin');
  });

  it('fails closed when the secret is still there after the overwrite', () => {
    // /dev/null takes every write and changes nothing: what a kernel that ignores it would do.
    proc.mem = '/dev/null';
    const err = errorOf(() =>
      clearStartupEnvironment({ env: {}, names: ['OPENAI_API_KEY'], holdsSecret, proc }),
    );
    expect(err.message).toContain('a secret is still there after the overwrite');
  });

  it('clears a variable that holds a known secret under another name', () => {
    writeFileSync(proc.environ, `PATH=/usr/bin\0MY_COPY=x${SECRET}y\0`);
    proc.mem = '/dev/null';
    const err = errorOf(() =>
      clearStartupEnvironment({ env: {}, names: ['OPENAI_API_KEY'], holdsSecret, proc }),
    );
    expect(err.message).toContain('(MY_COPY)');
  });

  it('writes nothing when the block holds no secret (secrets given as files)', () => {
    writeFileSync(proc.environ, 'PATH=/usr/bin\0HOME=/root\0');
    mkdirSync(proc.mem); // would fail if it were opened
    expect(
      clearStartupEnvironment({ env: {}, names: ['OPENAI_API_KEY'], holdsSecret, proc }),
    ).toEqual([]);
  });

  it('fails closed when the block cannot be read while a secret variable is set', () => {
    rmSync(proc.environ);
    const err = errorOf(() =>
      clearStartupEnvironment({
        env: { OPENAI_API_KEY: SECRET },
        names: ['OPENAI_API_KEY'],
        holdsSecret,
        proc,
      }),
    );
    expect(err.message).toContain('it cannot be read');
    // Nothing set in the environment: nothing to protect, no refusal.
    expect(
      clearStartupEnvironment({ env: {}, names: ['OPENAI_API_KEY'], holdsSecret, proc }),
    ).toEqual([]);
  });
});
