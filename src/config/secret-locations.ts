import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Settings } from './env.js';

/** Directories no sandbox may hide: hiding them would break every command. */
const SYSTEM = new Set([
  '/',
  '/usr',
  '/bin',
  '/sbin',
  '/lib',
  '/lib64',
  '/etc',
  '/opt',
  '/var',
  '/home',
  '/root',
  '/tmp',
  '/dev',
  '/proc',
]);

/**
 * Directories holding this process's secrets on disk — the App's private key, the files of the
 * `*_FILE` variables (Docker and Kubernetes secrets) and the env file the setup page wrote
 * (`AUTOFIX_ENV_FILE`, else `.env` in the working directory) —
 * which repository commands must not read (the sandbox binds `/` read-only, so without this
 * `npm ci` postinstall scripts, which have network, could read them).
 */
export function secretLocations(
  settings: Pick<Settings, 'privateKeyPath' | 'secretFiles'> & { envFile?: string },
  cwd: string = process.cwd(),
): string[] {
  const dirs = new Set<string>();
  for (const file of [settings.privateKeyPath, ...(settings.secretFiles ?? [])]) {
    if (file) dirs.add(dirname(resolve(cwd, file)));
  }
  const envFile = resolve(cwd, settings.envFile ?? '.env');
  if (existsSync(envFile)) dirs.add(dirname(envFile));
  return [...dirs].filter((d) => !SYSTEM.has(d));
}
