/**
 * One run of the whole pipeline through the compiled CLI (`autofix run`), as a user runs it: the
 * endpoint in the environment, the artifacts in a folder of the bench's, the sandbox asked for.
 * Asynchronous on purpose: the replay model answers from this same process.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ResolveTask } from './tasks.js';

const CLI = fileURLToPath(new URL('../../src/bin/autofix.js', import.meta.url));

export interface PipelineOptions {
  baseUrl: string;
  model: string;
  /** Sent as OPENAI_API_KEY; undefined: none (a local server). */
  apiKey: string | undefined;
  sandbox: 'bwrap' | 'none';
  /** AUTOFIX_WORKDIR of the runs (the workspace cache). */
  home: string;
}

/** What the run's `summary.json` says, as far as the bench reads it. */
interface Summary {
  outcome: string;
  failure: { stage: string; code: string; message: string } | null;
  stopped: string | null;
  commit: { sha: string; branch: string } | null;
  tokens: { prompt: number; completion: number; total: number };
  cost_usd: number;
  unpriced_models: string[];
}

export interface PipelineResult {
  exitCode: number;
  seconds: number;
  /** `success`, `stopped`, `failed`, or `no-summary` when the CLI wrote none. */
  outcome: string;
  /** Why a run gave no commit: the failure, the stop reason, or the CLI's last words. */
  reason?: string;
  commit?: { sha: string; branch: string };
  tokens: number;
  promptTokens: number;
  completionTokens: number;
  costUsd: number;
  unpricedModels: string[];
  artifacts: string;
}

function spawnCli(
  args: string[],
  env: NodeJS.ProcessEnv,
  logFile: string,
): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => chunks.push(c));
    child.stderr.on('data', (c: Buffer) => chunks.push(c));
    child.on('error', reject);
    child.on('close', (code) => {
      const output = Buffer.concat(chunks).toString('utf8');
      writeFileSync(logFile, output);
      resolve({ code: code ?? 1, output });
    });
  });
}

export async function runPipeline(
  task: ResolveTask,
  repoDir: string,
  runDir: string,
  options: PipelineOptions,
): Promise<PipelineResult> {
  const issueFile = join(runDir, 'issue.md');
  writeFileSync(issueFile, `${task.issue.title}\n\n${task.issue.body}\n`);
  const artifacts = join(runDir, 'artifacts');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    OPENAI_BASE_URL: options.baseUrl,
    AUTOFIX_WORKDIR: options.home,
  };
  delete env.OPENAI_API_KEY;
  if (options.apiKey) env.OPENAI_API_KEY = options.apiKey;
  const args = [
    'run',
    '--repo',
    repoDir,
    '--issue-file',
    issueFile,
    '--number',
    String(task.number),
    '--model',
    options.model,
    '--artifacts',
    artifacts,
    '--sandbox',
    options.sandbox,
  ];
  const started = performance.now();
  const { code, output } = await spawnCli(args, env, join(runDir, 'cli.log'));
  const seconds = (performance.now() - started) / 1000;
  const summaryFile = join(artifacts, 'summary.json');
  if (!existsSync(summaryFile)) {
    return {
      exitCode: code,
      seconds,
      outcome: 'no-summary',
      reason: output.trim().split('\n').slice(-3).join(' | '),
      tokens: 0,
      promptTokens: 0,
      completionTokens: 0,
      costUsd: 0,
      unpricedModels: [],
      artifacts,
    };
  }
  const s = JSON.parse(readFileSync(summaryFile, 'utf8')) as Summary;
  const reason = s.failure
    ? `${s.failure.stage}: ${s.failure.code}: ${s.failure.message}`
    : (s.stopped ?? undefined);
  return {
    exitCode: code,
    seconds,
    outcome: s.outcome,
    ...(reason ? { reason } : {}),
    ...(s.commit ? { commit: { sha: s.commit.sha, branch: s.commit.branch } } : {}),
    tokens: s.tokens.total,
    promptTokens: s.tokens.prompt,
    completionTokens: s.tokens.completion,
    costUsd: s.cost_usd,
    unpricedModels: s.unpriced_models,
    artifacts,
  };
}
