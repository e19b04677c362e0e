/**
 * What both demos share: the folder (a new temporary one, or `--dir`), the sample repository in
 * it, the scripted model on loopback and the settings of this run. The settings are built here
 * from the demo's own values, never from the user's environment: no API key of theirs is read or
 * sent anywhere.
 */
import { quote } from 'shell-quote';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { readSettings, type Settings } from '../config/env.js';
import { AutofixError } from '../errors.js';
import { startDemoLlm } from './demo-llm.js';
import { DEMO_REPO_NAME, writeDemoRepo } from './sample.js';
import type { ScriptedLlmServer } from '../../fakes/llm/index.js';

/** Sent as the bearer token to the scripted server: a placeholder, not a secret. */
export const DEMO_API_KEY = 'sk-autofix-demo-scripted-model';
export const DEMO_MODEL = 'autofix-demo-scripted';

export interface DemoOptions {
  /** Folder for the demo (created; must be empty); a new temporary folder when absent. */
  dir?: string;
  /** Workspace cache and artifacts (AUTOFIX_WORKDIR); `<dir>/workdir` when absent. */
  workdir?: string;
  /** Keep the workspace cache too (the sample repository and the run's artifacts always stay). */
  keep?: boolean;
  sandbox: 'bwrap' | 'none';
}

export interface DemoSetup {
  root: string;
  repo: string;
  workdir: string;
  /**
   * Where the run's artifacts go when the workdir is removed at the end (beside the sample, so
   * the files the report lists stay); undefined: in the workdir, which stays.
   */
  artifactsDir?: string;
  llm: ScriptedLlmServer;
  /** The settings of this run; `extra` adds to the demo's own environment (Redis, GitHub…). */
  settings(extra?: Record<string, string>): Settings;
  /** Closes the model; removes the workdir unless kept or given. */
  cleanup(): Promise<void>;
}

export async function setUpDemo(options: DemoOptions): Promise<DemoSetup> {
  let root: string;
  if (options.dir) {
    root = resolve(options.dir);
    if (existsSync(root) && readdirSync(root).length > 0) {
      throw new AutofixError(
        'CONFIG_INVALID',
        `--dir ${root} is not empty: give a new or empty folder (or leave --dir out for a temporary one)`,
      );
    }
    mkdirSync(root, { recursive: true });
  } else {
    root = mkdtempSync(join(tmpdir(), 'autofix-demo-'));
  }
  const repo = join(root, DEMO_REPO_NAME);
  const workdir = options.workdir ? resolve(options.workdir) : join(root, 'workdir');
  mkdirSync(workdir, { recursive: true });
  await writeDemoRepo(repo);
  const llm = await startDemoLlm();
  const removesWorkdir = !options.keep && !options.workdir;
  return {
    root,
    repo,
    workdir,
    ...(removesWorkdir ? { artifactsDir: join(root, 'artifacts') } : {}),
    llm,
    settings: (extra = {}) =>
      readSettings({
        OPENAI_BASE_URL: llm.baseUrl,
        OPENAI_API_KEY: DEMO_API_KEY,
        AUTOFIX_MODEL: DEMO_MODEL,
        AUTOFIX_WORKDIR: workdir,
        AUTOFIX_SANDBOX: options.sandbox,
        ...extra,
      }),
    async cleanup() {
      await llm.close();
      if (removesWorkdir) rmSync(workdir, { recursive: true, force: true });
    },
  };
}

/** A path as a POSIX shell reads it back, for the commands the demo prints. */
export function shellQuote(path: string): string {
  return quote([path]);
}
