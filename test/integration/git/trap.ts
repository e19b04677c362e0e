/**
 * Programs an attacker would plant in a mirror (issue #11): each records that it ran, and the
 * environment it got, in a directory of the test. A test plants them the way the attacker did
 * (config entries, hook files), runs a job, and asserts that none of them ever ran.
 */
import { chmod, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Writable } from 'node:stream';
import { createLogger, type Logger } from '../../../src/logger.js';

export interface Trap {
  /** Writes an executable script at `path` that records `label` when run; returns `path`. */
  install(path: string, label: string): Promise<string>;
  /** A script in the trap's own directory; returns its path. */
  script(label: string): Promise<string>;
  /** The labels of every planted program that ran, in order. */
  runs(): Promise<string[]>;
  /** What the planted programs saw in their environment, concatenated. */
  environments(): Promise<string>;
  clear(): Promise<void>;
}

export async function makeTrap(root: string): Promise<Trap> {
  const dir = join(root, 'trap');
  const log = join(dir, 'ran.log');
  await mkdir(dir, { recursive: true });
  const install = async (path: string, label: string) => {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, `#!/bin/sh\necho '${label}' >> '${log}'\nenv > '${dir}/env-${label}'\n`);
    await chmod(path, 0o755);
    return path;
  };
  return {
    install,
    script: (label) => install(join(dir, `${label}.sh`), label),
    runs: async () =>
      (await readFile(log, 'utf8').catch(() => '')).split('\n').filter((l) => l !== ''),
    environments: async () => {
      const files = (await readdir(dir)).filter((f) => f.startsWith('env-'));
      const texts = await Promise.all(files.map((f) => readFile(join(dir, f), 'utf8')));
      return texts.join('\n');
    },
    clear: async () => {
      await rm(log, { force: true });
      for (const f of await readdir(dir)) if (f.startsWith('env-')) await rm(join(dir, f));
    },
  };
}

export interface CapturedLog {
  logger: Logger;
  text(): string;
  /** Parsed lines at warn level (pino: 40). */
  warnings(): Record<string, unknown>[];
}

export function captureLog(): CapturedLog {
  let text = '';
  const logger = createLogger({
    level: 'debug',
    destination: new Writable({
      write(chunk: Buffer, _enc, done) {
        text += chunk.toString();
        done();
      },
    }),
  });
  return {
    logger,
    text: () => text,
    warnings: () =>
      text
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .filter((l) => l.level === 40),
  };
}
