import { existsSync, readFileSync } from 'node:fs';
import { parseEnv } from 'node:util';

/**
 * Reads `.env` (written by Probot's setup flow) into `env` without overriding variables that
 * are already set, so the real environment always wins.
 */
export function loadDotEnv(path: string, env: Record<string, string | undefined>): boolean {
  if (!existsSync(path)) return false;
  const values = parseEnv(readFileSync(path, 'utf8')) as Record<string, string>;
  for (const [key, value] of Object.entries(values)) {
    if (env[key] === undefined) env[key] = value;
  }
  return true;
}
