/** What an in-process `autofix run` test needs: the scripted LLM, a fresh workdir, settings. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readSettings, type Settings } from '../../src/config/env.js';
import { startFakeLlmServer, type FakeLlmServer } from './fake-llm-server.js';

export interface LocalRunEnv {
  llm: FakeLlmServer;
  workdir: string;
  settings: Settings;
}

export async function startLocalRunEnv(apiKey: string): Promise<LocalRunEnv> {
  const llm = await startFakeLlmServer({ apiKey });
  const workdir = mkdtempSync(join(tmpdir(), 'autofix-workdir-'));
  const settings = readSettings({
    OPENAI_BASE_URL: llm.baseUrl,
    OPENAI_API_KEY: apiKey,
    AUTOFIX_WORKDIR: workdir,
    AUTOFIX_MODEL: 'test-model',
  });
  return { llm, workdir, settings };
}

export async function stopLocalRunEnv(env: LocalRunEnv): Promise<void> {
  await env.llm.close();
  rmSync(env.workdir, { recursive: true, force: true });
}
