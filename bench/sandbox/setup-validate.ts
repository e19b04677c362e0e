/**
 * Part 3: a real repository's `setup` (`npm ci`) and `validate` (`npm test`) through the real
 * `runValidation`, per job in a fresh checkout, in three ways:
 *   - none: no sandbox, direct network, HOME with a warm ~/.npm (a developer's machine);
 *   - bwrap: the hardened sandbox, setup through the egress proxy and its bridge, the warm
 *     per-repository cache bound in as the job's ~/.cache, exactly as code-workspace.ts does;
 *   - none as the pipeline runs it: what code-workspace.ts hands an unsandboxed worker (a fresh
 *     job HOME, the cache variables pointing into it, the binds ignored).
 * Each variant runs once untimed (its cold run, reported apart), then `runs` times, alternating.
 * For the sandboxed jobs the chown round trips of what setup and validate hand over are timed
 * again at the size they had (node_modules included).
 */
import { cp, mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { EgressReport } from '../../src/exec/egress/egress-report.js';
import type { ValidationOptions } from '../../src/exec/run-validation.js';
import type { SandboxPolicy } from '../../src/exec/sandbox-policy.js';
import { lockNodeProject, writeNodeProject } from './node-project.js';
import { chownRoundTrip } from './sandbox-pieces.js';
import { median, type Timing } from './timings.js';
import { setupCache } from '../../src/pipeline/code/code-workspace.js';
import { runValidationJob, type JobTime } from './validation-job.js';

export interface VariantTiming {
  key: 'none' | 'bwrap' | 'pipeline-none';
  name: string;
  setup: number[];
  validate: number[];
  total: number[];
  /** How long npm itself ran (setup + validate), as GNU time inside the command saw it. */
  npm: number[];
  /** CPU time of npm and its children (setup + validate), as GNU time saw it. */
  cpu: number[];
  cold: JobTime;
}

export interface SetupValidate {
  variants: VariantTiming[];
  /** chown round trips at the jobs' real size. */
  parts: Timing[];
  /** Medians of those in ms: what setup and validate hand over. */
  chownMs: { setup: number; validate: number };
  notes: string[];
}

interface Variant {
  key: VariantTiming['key'];
  name: string;
  /** The options of one job whose own directory is `job` (fresh, empty). */
  options(job: string): ValidationOptions;
}

async function countEntries(dir: string): Promise<number> {
  return (await readdir(dir, { recursive: true }).catch(() => [])).length;
}

export async function measureSetupValidate(
  scratch: string,
  runs: number,
  policies: { none: SandboxPolicy; bwrap: SandboxPolicy },
): Promise<SetupValidate> {
  const base = await mkdtemp(join(scratch, 'repo-'));
  const project = join(base, 'project');
  await mkdir(join(base, 'install-home'));
  await writeNodeProject(project);
  await lockNodeProject(project, join(base, 'install-home'));

  const developerHome = join(base, 'developer-home');
  const repoCache = join(base, 'repo-cache');
  const pipelineCache = join(base, 'pipeline-none-cache');
  await Promise.all([developerHome, repoCache, pipelineCache].map((d) => mkdir(d)));
  const jobDirs = (job: string) => ({ home: join(job, 'home'), tmpDir: join(job, 'tmp') });
  const variants: Variant[] = [
    {
      key: 'none',
      name: 'none: direct network, warm ~/.npm',
      options: (job) => ({ sandbox: policies.none, ...jobDirs(job), home: developerHome }),
    },
    {
      key: 'bwrap',
      name: 'bwrap: egress proxy + bridge, warm repository cache',
      options: (job) => ({
        sandbox: policies.bwrap,
        ...jobDirs(job),
        setupCache: setupCache(jobDirs(job).home, repoCache, 'bwrap'),
      }),
    },
    {
      key: 'pipeline-none',
      name: 'none as code-workspace.ts runs it (the repository cache, no bind)',
      options: (job) => ({
        sandbox: policies.none,
        ...jobDirs(job),
        setupCache: setupCache(jobDirs(job).home, pipelineCache, 'none'),
      }),
    },
  ];

  const chownSetup: number[] = [];
  const chownValidate: number[] = [];
  let egress: EgressReport | undefined;
  let sizes = '';
  const job = async (variant: Variant, timed: boolean): Promise<JobTime> => {
    const dir = await mkdtemp(join(base, `${variant.key}-`));
    const worktree = join(dir, 'worktree');
    try {
      await cp(project, worktree, { recursive: true });
      const options = variant.options(dir);
      await mkdir(options.home!, { recursive: true });
      await mkdir(options.tmpDir!, { recursive: true });
      const { time, run } = await runValidationJob(worktree, options).catch((err: Error) => {
        throw new Error(`${variant.name}: ${err.message}`);
      });
      if (variant.key === 'bwrap' && timed) {
        egress = run.results[0]?.egress;
        const home = options.home!;
        let t = performance.now();
        await chownRoundTrip([worktree, home, repoCache], policies.bwrap);
        chownSetup.push(performance.now() - t);
        t = performance.now();
        await chownRoundTrip([worktree, home], policies.bwrap);
        chownValidate.push(performance.now() - t);
        sizes =
          `after npm ci a job's worktree holds ${await countEntries(worktree)} entries, ` +
          `the repository cache ${await countEntries(repoCache)}`;
      }
      return time;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  };

  const timings: VariantTiming[] = [];
  for (const v of variants) {
    const cold = await job(v, false);
    timings.push({
      key: v.key,
      name: v.name,
      setup: [],
      validate: [],
      total: [],
      npm: [],
      cpu: [],
      cold,
    });
  }
  for (let i = 0; i < runs; i++) {
    // Alternating, and each round starts with another variant: none always runs after the same.
    for (let j = 0; j < variants.length; j++) {
      const k = (i + j) % variants.length;
      const t = await job(variants[k]!, true);
      const row = timings[k]!;
      row.setup.push(t.setup);
      row.validate.push(t.validate);
      row.total.push(t.setup + t.validate);
      row.npm.push(t.npm);
      row.cpu.push(t.cpu);
    }
  }

  const notes = [sizes];
  if (egress) {
    const allowed = egress.allowed.map((a) => `${a.host}:${a.port} ×${a.count} (${a.bytes} B)`);
    const blocked = egress.blocked.map((b) => `${b.host}:${b.port} ${b.reason} ×${b.count}`);
    notes.push(
      `egress of one sandboxed npm ci: allowed ${allowed.join(', ') || 'nothing'}; ` +
        `blocked ${blocked.join(', ') || 'nothing'}`,
    );
  }
  notes.push(
    `the pipeline's unsandboxed cache directory holds ${await countEntries(pipelineCache)} entries ` +
      `after ${runs + 1} jobs (no bind without a sandbox: the variables name it directly)`,
  );
  await rm(base, { recursive: true, force: true });
  return {
    variants: timings,
    chownMs: { setup: median(chownSetup), validate: median(chownValidate) },
    parts: [
      {
        name: 'part: chown round trip of worktree + HOME + cache (what setup hands over)',
        samples: chownSetup,
      },
      {
        name: 'part: chown round trip of worktree + HOME (what validate hands over)',
        samples: chownValidate,
      },
    ],
    notes,
  };
}
