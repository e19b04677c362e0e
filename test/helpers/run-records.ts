/**
 * Run records as the app keeps them (src/runs/run-record.ts), for the run page's tests: one that
 * succeeded (every output filled), one that failed in the code stage, one parked for budget.
 */
import { DEFAULT_REPO_CONFIG } from '../../src/config/repo-config.js';
import type { CodeOutput, CommandResult } from '../../src/contracts.js';
import { EMPTY_USAGE, type Run, type RunUsage } from '../../src/runs/run-record.js';

const T0 = Date.UTC(2026, 10, 28, 12, 0, 0);

const usage = (prompt: number, completion: number, costUsd: number): RunUsage => ({
  ...EMPTY_USAGE,
  promptTokens: prompt,
  completionTokens: completion,
  totalTokens: prompt + completion,
  costUsd,
  maxCallCostUsd: costUsd,
});

export const DIFF = [
  'diff --git a/src/slug.js b/src/slug.js',
  '--- a/src/slug.js',
  '+++ b/src/slug.js',
  '@@ -1,3 +1,3 @@',
  ' export function slug(text) {',
  "-  return text.toLowerCase().replace(' ', '-');",
  "+  return text.toLowerCase().replace(/\\s+/g, '-');",
  ' }',
  'diff --git a/test/slug-repro.test.js b/test/slug-repro.test.js',
  '+++ b/test/slug-repro.test.js',
  "+test('slugs every space', () => expect(slug('a b c')).toBe('a-b-c'));",
].join('\n');

const command = (cmd: string, exit: number, stdout: string, stderr = ''): CommandResult => ({
  command: cmd,
  exit_code: exit,
  stdout,
  stderr,
  duration_ms: 1234,
  timed_out: false,
  sandboxed: true,
});

export function codeOutput(validation: CommandResult[], diff = DIFF): CodeOutput {
  return {
    commit: {
      issue_number: 7,
      message: 'fix(slug): replace every space',
      diff,
      files_changed: ['src/slug.js', 'test/slug-repro.test.js'],
      validation_results: validation,
      sha: 'c0ffee0000000000000000000000000000000001',
      branch: 'autofix/fix/7-slug-spaces',
      timestamp: new Date(T0).toISOString(),
    },
    code: {
      changes: [{ path: 'src/slug.js', operation: 'modified' }],
      validation,
      warnings: [],
      notes: { user: [], debug: [] },
      amendments: [],
      repairs: 1,
      baseline: { commit: 'base000', cached: false, failing: [] },
      preexisting: [],
      exploration: {
        steps: [
          { round: 0, tool: 'read_file', summary: 'read src/slug.js (12 lines)', error: false },
          { round: 0, tool: 'search', summary: 'searched /replace\\(/ → 2 hits', error: false },
          { round: 1, tool: 'run_tests', summary: 'ran node --test: 1 failing', error: true },
        ],
        ends: ['finish called'],
      },
    },
    branch: {
      name: 'autofix/fix/7-slug-spaces',
      remoteShaBefore: null,
      kept: { ref: 'refs/autofix/runs/run-0123456789abcdef', sha: 'c0ffee01' },
    },
  };
}

/** A run whose every stage went through, with its PR open. */
export function succeededRun(): Run {
  const validation = [
    command('node --test test/slug-repro.test.js', 0, 'ok 1 - slugs every space\n# pass 1'),
    command('npm test', 0, 'ok 1 - slug\nok 2 - slugs every space\n# pass 2'),
  ];
  const stage = (i: number, u: RunUsage, model = 'gpt-4.1-mini') => ({
    attempts: 1,
    startedAt: T0 + i * 10_000,
    endedAt: T0 + i * 10_000 + 8_000,
    durationMs: 8_000,
    state: 'done' as const,
    models: [model],
    usage: u,
  });
  return {
    runId: 'run-0123456789abcdef',
    deliveryId: 'delivery-1',
    triggerKey: 'comment:1',
    installationId: 1,
    repository: {
      owner: 'acme',
      name: 'slugs',
      fullName: 'acme/slugs',
      cloneUrl: 'https://github.com/acme/slugs.git',
      defaultBranch: 'main',
    },
    issue: { number: 7, title: 'slug() replaces only the first space', body: 'a b c → a-b c' },
    trigger: { kind: 'label', label: 'autofix' },
    facts: { conversation: 7, existingBranch: 'replace-bot-only' },
    sender: 'maintainer',
    config: DEFAULT_REPO_CONFIG,
    status: { stages: {} },
    outputs: {
      triage: {
        risk: 'LOW',
        classification: 'fix',
        affected_files: ['src/slug.js'],
        summary: 'slug() must replace every run of spaces',
        ranked: [
          { path: 'src/slug.js', reasons: ['defines `slug`', 'named in the title'] },
          { path: 'test/slug.test.js', reasons: ['imports src/slug.js (+12)'] },
        ],
      },
      plan: {
        branch_name: 'autofix/fix/7-slug-spaces',
        commit_type: 'fix',
        scope: 'slug',
        commit_subject: 'replace every space',
        plan_steps: [{ id: '1', description: 'Use a global regular expression in slug()' }],
        file_changes: [{ path: 'src/slug.js', operation: 'MODIFY', line_range: [1, 3] }],
        validation_commands: ['npm test'],
      },
      reproduce: {
        status: 'reproduced',
        duration_ms: 900,
        path: 'test/slug-repro.test.js',
        content: "test('slugs every space', …)",
        command: 'node --test test/slug-repro.test.js',
        test_name: 'slugs every space',
        base_failure: "AssertionError: expected 'a-b c' to be 'a-b-c'",
        base_exit_code: 1,
      },
      code: codeOutput(validation),
      pr: {
        title: 'fix(slug): replace every space',
        body: 'Fixes #7',
        branch: 'autofix/fix/7-slug-spaces',
        pr: { number: 8, url: 'https://github.com/acme/slugs/pull/8', draft: false },
      },
    },
    acceptedAt: T0,
    route: 'fix',
    stages: {
      triage: stage(0, usage(1200, 150, 0.0011)),
      plan: stage(1, usage(2400, 400, 0.0023)),
      reproduce: stage(2, usage(1800, 300, 0.0017)),
      code: { ...stage(3, usage(9000, 2100, 0.0091)), attempts: 2 },
      pr: stage(4, usage(1500, 200, 0.0012)),
    },
    usage: usage(15_900, 3_150, 0.0154),
    extraBudgetUsd: 0,
    resumes: [],
    ending: {
      outcome: 'finished',
      status: { stages: {}, outcome: { kind: 'success' } },
      at: T0 + 50_000,
    },
    rev: 12,
    updatedAt: T0 + 50_000,
  };
}

/** The same run, failed in the code stage: validation failed after its repairs. */
export function failedRun(): Run {
  const run = succeededRun();
  const validation = [
    command('npm test', 1, 'not ok 2 - slugs every space', "AssertionError: 'a-b c' !== 'a-b-c'"),
  ];
  delete run.outputs.pr;
  return {
    ...run,
    outputs: { ...run.outputs, code: codeOutput(validation) },
    stages: {
      ...run.stages,
      code: { ...run.stages.code!, state: 'failed', attempts: 3 },
      pr: undefined,
    },
    ending: {
      outcome: 'failed',
      failure: {
        stage: 'code',
        attempts: 3,
        error: {
          code: 'VALIDATION_FAILED',
          message: '`npm test` failed after 2 repairs: slugs every space',
          recoverable: false,
        },
      },
      at: T0 + 60_000,
    },
  };
}

/** The run paused before the code stage: the next call would cross the run's cap. */
export function parkedRun(): Run {
  const run = succeededRun();
  delete run.outputs.code;
  delete run.outputs.pr;
  return {
    ...run,
    stages: {
      triage: run.stages.triage!,
      plan: run.stages.plan!,
      reproduce: run.stages.reproduce!,
    },
    ending: undefined,
    parked: {
      reason: 'budget',
      resumeAt: 'code',
      message: 'paused at $1.94 of $2.00 after reproduce; `/autofix continue $1` goes on',
      at: T0 + 30_000,
      expiresAt: T0 + 7 * 24 * 3600_000,
      cap: { scope: 'run', limit: 2, spent: 1.94 },
    },
  };
}
