/**
 * The kernel keeps the environment a process was started with — the block of `KEY=value\0`
 * strings between `env_start` and `env_end` of its memory — and shows it as
 * `/proc/<pid>/environ` to every process of the same user and to root, whatever the process did
 * to `process.env` since. Deleting a variable from `process.env` (libc's `unsetenv`) only drops
 * libc's pointer to it; the bytes stay. So the bytes of each secret variable are overwritten with
 * zeros, through `/proc/self/mem`, after `process.env` let go of them (libc's `environ` still
 * points into the block for the variables that stay, so only the secret entries are touched).
 *
 * Then the block is read back: a secret still there, or a block that cannot be written (a
 * hardened kernel or container), stops the process — it fails closed, and the message names the
 * fix (give the secrets as files). Works for any user: a process may always write its own memory.
 */
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { AutofixError } from '../errors.js';

/** Where the block is read, located and written; tests point these elsewhere. */
export interface ProcSelf {
  stat: string;
  environ: string;
  mem: string;
}

const PROC_SELF: ProcSelf = {
  stat: '/proc/self/stat',
  environ: '/proc/self/environ',
  mem: '/proc/self/mem',
};

/** `env_start` and `env_end`: fields 50 and 51 of `stat`, counted after the command's `)`. */
function blockRange(stat: string): { start: number; end: number } {
  // Field 3 (the state) is the first after ") "; field n is at index n - 3.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const start = Number(fields[50 - 3]);
  const end = Number(fields[51 - 3]);
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || end <= start)
    throw new Error('no env_start/env_end in /proc/self/stat');
  return { start, end };
}

interface Entry {
  name: string;
  offset: number;
  length: number;
}

function entriesOf(block: Buffer): { entry: Entry; value: string }[] {
  const out: { entry: Entry; value: string }[] = [];
  let offset = 0;
  while (offset < block.length) {
    let end = block.indexOf(0, offset);
    if (end < 0) end = block.length;
    const text = block.subarray(offset, end).toString('utf8');
    const eq = text.indexOf('=');
    if (eq > 0) {
      out.push({
        entry: { name: text.slice(0, eq), offset, length: end - offset },
        value: text.slice(eq + 1),
      });
    }
    offset = end + 1;
  }
  return out;
}

const FIX =
  'Give the secrets as files instead (PRIVATE_KEY_PATH, WEBHOOK_SECRET_FILE, OPENAI_API_KEY_FILE, ' +
  'ADMIN_PASSWORD_FILE; Docker and Kubernetes secrets mount them), so none is in the environment ' +
  '(docs/SECURITY.md, "Secrets in the process").';

function failClosed(why: string, stillThere: readonly string[]): never {
  const names = stillThere.length > 0 ? ` (${[...new Set(stillThere)].join(', ')})` : '';
  throw new AutofixError(
    'CONFIG_INVALID',
    `Secrets in the start-up environment${names} could not be cleared from /proc/self/environ: ${why}. ` +
      `Refusing to start while any process of this user can read them there. ${FIX}`,
  );
}

export interface ClearOptions {
  /** The process environment: each cleared variable is deleted from it first. */
  env: Record<string, string | undefined>;
  /** Variables cleared whatever their value (the secret variables). */
  names: readonly string[];
  /** True when a value holds a known secret in any form: such a variable is cleared too. */
  holdsSecret: (text: string) => boolean;
  proc?: ProcSelf;
}

/**
 * Clears the secret variables from the start-up environment block; returns their names. Nothing
 * is written when the block holds no secret (secrets given as files).
 */
export function clearStartupEnvironment(options: ClearOptions): string[] {
  const proc = options.proc ?? PROC_SELF;
  const isSecret = (name: string, value: string): boolean =>
    options.names.includes(name) || options.holdsSecret(value);
  let block: Buffer;
  try {
    block = readFileSync(proc.environ);
  } catch (err) {
    const named = options.names.filter((n) => options.env[n] !== undefined);
    if (named.length === 0) return [];
    return failClosed(`it cannot be read (${(err as Error).message})`, named);
  }
  const targets = entriesOf(block).filter(({ entry, value }) => isSecret(entry.name, value));
  if (targets.length === 0) return [];
  const names = targets.map((t) => t.entry.name);
  // libc must not point at bytes about to become zeros.
  for (const name of names) delete options.env[name];
  try {
    const { start, end } = blockRange(readFileSync(proc.stat, 'utf8'));
    if (end - start !== block.length) throw new Error('the block moved');
    const fd = openSync(proc.mem, 'r+');
    try {
      for (const { entry } of targets) {
        writeSync(fd, Buffer.alloc(entry.length), 0, entry.length, start + entry.offset);
      }
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    return failClosed(`it cannot be written (${(err as Error).message})`, names);
  }
  let after: Buffer;
  try {
    after = readFileSync(proc.environ);
  } catch (err) {
    return failClosed(`it cannot be read back (${(err as Error).message})`, names);
  }
  const left = entriesOf(after)
    .filter(({ entry, value }) => isSecret(entry.name, value))
    .map((t) => t.entry.name);
  if (left.length > 0 || options.holdsSecret(after.toString('utf8')))
    return failClosed('a secret is still there after the overwrite', left);
  return [...new Set(names)];
}
