/**
 * Secrets given as files (`WEBHOOK_SECRET_FILE`, `OPENAI_API_KEY_FILE`, `ADMIN_PASSWORD_FILE`):
 * what Docker and Kubernetes secrets mount. A file's value never enters the process environment,
 * so neither `/proc/<pid>/environ` nor `docker inspect` shows it.
 */
import { readFileSync } from 'node:fs';

/** The variables that may also be given as `<NAME>_FILE`. */
export const FILE_SECRETS = ['WEBHOOK_SECRET', 'OPENAI_API_KEY', 'ADMIN_PASSWORD'] as const;

export type FileSecret = (typeof FILE_SECRETS)[number];

const given = (value: string | undefined): string | undefined => value?.trim() || undefined;

/**
 * The value of `name`, inline or read from the file `<name>_FILE` names (one trailing line break
 * dropped, as `echo` and editors leave one). Problems are added to `problems`, by variable, never
 * with the value: both forms set, an unreadable or empty file.
 */
export function readSecretVariable(
  env: Record<string, string | undefined>,
  name: FileSecret,
  problems: string[],
): { value?: string; file?: string } {
  const inline = given(env[name]);
  const file = given(env[`${name}_FILE`]);
  if (inline && file) {
    problems.push(`${name} and ${name}_FILE: set one of them, not both`);
    return {};
  }
  if (!file) return inline ? { value: inline } : {};
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    problems.push(`${name}_FILE: cannot read ${file}: ${(err as Error).message}`);
    return {};
  }
  const value = text.replace(/\r?\n$/, '');
  if (value.trim() === '') {
    problems.push(`${name}_FILE: ${file} is empty`);
    return {};
  }
  return { value, file };
}
