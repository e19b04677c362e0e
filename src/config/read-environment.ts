/**
 * What `serve` and `worker` read at start: the env file (`AUTOFIX_ENV_FILE`, else `.env`) under
 * the real environment, then the settings, with the file's own problems and every variable's in
 * one report that says which line of the file set a wrong value.
 */
import { envFilePath, loadDotEnv } from './dotenv.js';
import { readSettings, type Settings } from './env.js';

export function readEnvironment(env: Record<string, string | undefined> = process.env): Settings {
  const dotEnv = loadDotEnv(envFilePath(env), env);
  return readSettings(env, { dotEnv });
}
