/**
 * `npm run bench:sandbox`: what the hardened sandbox (issue #11) costs. Goal: it adds < 10% to
 * setup + validate time on a real repository.
 *   1. Per-command start cost of `true`, `node -e 0` and one HTTPS request: no sandbox, bwrap,
 *      bwrap + egress, and the parts of a sandboxed command on their own (sandbox/start-cost.ts).
 *   2. The chown hand-over on a big worktree (sandbox/big-worktree.ts).
 *   3. A real Node project's `npm ci` + `npm test` on a warm cache: no sandbox with direct
 *      network vs the sandbox with setup through the egress proxy (sandbox/setup-validate.ts);
 *      skipped, with the reason, when the npm registry cannot be reached.
 * Prints tables, then `SUMMARY sandbox start_ms_none=… start_ms_bwrap=… start_ms_egress=…
 * npm_ci_none_s=… npm_ci_bwrap_s=… overhead_pct=… overhead_paired_pct=… sandbox_own_ms=…
 * sandbox_own_pct=…`.
 * Env: BENCH_SANDBOX_RUNS (part 1, default 30), BENCH_SANDBOX_FILES (part 2, default 20000),
 * BENCH_SANDBOX_BIG_RUNS (part 2, default 5), BENCH_SANDBOX_REPEATS (part 3, default 5).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { basicSandboxPolicy } from '../src/exec/sandbox-policy.js';
import { measureBigWorktree } from './sandbox/big-worktree.js';
import { REGISTRY_PROBE_URL, registryAccess } from './sandbox/registry-access.js';
import {
  printBigWorktree,
  printSetupValidate,
  printStartCost,
  summaryLine,
} from './sandbox/report.js';
import { measureSetupValidate, type SetupValidate } from './sandbox/setup-validate.js';
import { measureStartCost } from './sandbox/start-cost.js';

const RUNS = Number(process.env.BENCH_SANDBOX_RUNS ?? 30);
const FILES = Number(process.env.BENCH_SANDBOX_FILES ?? 20_000);
const BIG_RUNS = Number(process.env.BENCH_SANDBOX_BIG_RUNS ?? 5);
const REPEATS = Number(process.env.BENCH_SANDBOX_REPEATS ?? 5);

async function main(): Promise<void> {
  const scratch = await mkdtemp(join(tmpdir(), 'autofix-bench-sandbox-'));
  try {
    const access = await registryAccess();
    const policies = {
      none: basicSandboxPolicy('none'),
      bwrap: basicSandboxPolicy('bwrap', {
        trustedHosts: access.reachable ? access.trustedHosts : [],
      }),
    };
    const runAs = policies.bwrap.runAs;
    console.log(
      runAs
        ? `sandbox bench as root: commands run as uid ${runAs.uid} through prlimit → bwrap → ` +
            'setpriv → bwrap; worktree and HOME are chowned to it and back around each command'
        : 'sandbox bench as a normal user: one unprivileged bwrap per command, no chown',
    );

    console.log(`\n## 1. Per-command start cost (${RUNS} runs per row, interleaved)\n`);
    const start = await measureStartCost(
      scratch,
      RUNS,
      policies,
      access.reachable ? REGISTRY_PROBE_URL : undefined,
    );
    printStartCost(start);

    console.log(`\n## 2. Hand-over on a big worktree (${FILES} files, ${BIG_RUNS} runs per row)\n`);
    printBigWorktree(await measureBigWorktree(scratch, FILES, BIG_RUNS, policies));

    let setupValidate: SetupValidate | undefined;
    if (access.reachable) {
      console.log(
        `\n## 3. Real repository: npm ci + npm test, warm cache ` +
          `(${REPEATS} runs per variant, alternating)\n`,
      );
      if (access.note) console.log(`- ${access.note}\n`);
      setupValidate = await measureSetupValidate(scratch, REPEATS, policies);
      printSetupValidate(setupValidate, start);
    } else {
      console.log(
        `\n## 3. Real repository: SKIPPED, the npm registry cannot be reached (${access.reason})`,
      );
    }
    console.log(`\n${summaryLine(start, setupValidate)}`);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
