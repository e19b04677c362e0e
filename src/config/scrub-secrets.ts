/**
 * Once `readSettings` has the secrets, the process lets go of every other copy of them: in
 * `process.env` (children inherit it) and in the kernel's copy of the start-up environment
 * (`/proc/<pid>/environ`).
 */
import { createRedactor } from '../artifacts/redact.js';
import { clearStartupEnvironment } from './clear-startup-environment.js';

/** Variables that hold secrets: read once by `readSettings`, then removed from the environment. */
const SCRUBBED = ['PRIVATE_KEY', 'WEBHOOK_SECRET', 'OPENAI_API_KEY', 'ADMIN_PASSWORD'] as const;

/**
 * Removes the secrets from `env` (the process environment) once they are in `Settings`: no child
 * process we start can inherit them, whatever environment it is given, and libraries that read
 * `process.env` on their own (the OpenAI SDK does) get them only from us. A Redis URL with a
 * password is scrubbed too, and so is any variable whose value holds one of `secrets` in any form
 * the redactor knows (a `REDIS_PASSWORD` that compose's `env_file` passed along).
 *
 * For the process environment, the kernel's copy of it goes too (`clearStartupEnvironment`):
 * afterwards `/proc/<pid>/environ` holds no secret, or the process has stopped (fail closed).
 * Returns the names cleared there.
 */
export function scrubSecrets(
  env: Record<string, string | undefined>,
  secrets: readonly string[] = [],
): string[] {
  const known = createRedactor(secrets);
  const holdsSecret = (text: string): boolean => known.find(text).length > 0;
  const names: string[] = [...SCRUBBED];
  const redis = env.REDIS_URL;
  if (redis && URL.canParse(redis) && new URL(redis).password) names.push('REDIS_URL');
  for (const [name, value] of Object.entries(env)) {
    if (value && holdsSecret(value)) names.push(name);
  }
  const cleared = env === process.env ? clearStartupEnvironment({ env, names, holdsSecret }) : [];
  for (const name of names) delete env[name];
  return cleared;
}
