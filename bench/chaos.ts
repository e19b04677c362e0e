/**
 * `npm run bench:chaos` (issue #13): N runs of the real app — `autofix serve --no-workers` and one
 * or two `autofix worker` processes from dist/, a private redis-server with an append-only file, a
 * real bare git remote, the fake GitHub over HTTP and the scripted LLM — while a controller
 * injects faults on a seeded schedule: SIGKILLed workers (restarted), Redis restarts (SIGTERM or
 * SIGKILL, same port and directory), a SIGKILLed webhook server, and GitHub answering 502, 403
 * with Retry-After, late or never. Each run is one `issues.labeled` delivery on its own issue,
 * sent once like GitHub does. Once the queues are idle it counts, per trigger, the outcome (one
 * PR, or one failure comment and a clean remote) and the invariants of issue #13: lost
 * triggers, duplicate PRs, orphan branches on the remote, stale job folders and worktrees.
 *
 *   node dist/bench/chaos.js [--runs 40] [--seed 1] [--verbose] [--keep] …  (see chaos/args.ts)
 *
 * Last line: SUMMARY chaos runs=… faults=… lost=… duplicate_prs=… orphan_branches=… stale_worktrees=…
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../src/hosts/app/free-port.js';
import { startFakeGitHub } from '../fakes/github/index.js';
import { startFakeLlmServer } from '../test/helpers/fake-llm-server.js';
import { createSampleRepo } from '../test/helpers/sample-repo.js';
import { generateAppKeyPair, WEBHOOK_PATH } from '../test/helpers/webhooks.js';
import { cleanEnv, startSlot, type Slot } from './chaos/app-processes.js';
import { parseArgs } from './chaos/args.js';
import {
  cleanupAll,
  installSignalHandlers,
  onCleanup,
  setProcessToken,
  strayProcesses,
} from './chaos/cleanup.js';
import { createController } from './chaos/controller.js';
import { scriptForever } from './chaos/llm.js';
import { collectRuns, leftovers, remoteBranches } from './chaos/outcomes.js';
import { waitQuiet, watchQueues } from './chaos/quiescence.js';
import { startBenchRedis } from './chaos/redis.js';
import { countsOf, renderReport } from './chaos/report.js';
import { describeFault, makeSchedule } from './chaos/schedule.js';
import { BODY, delivered, newDelivery, TITLE, type Delivery } from './chaos/triggers.js';

const SECRET = 'bench-chaos-webhook-secret';
const API_KEY = 'sk-bench-chaos-0123456789abcdefXYZ';
const PREFIX = 'chaos';
const CONFIG = 'reproduce: off\nvalidate:\n  - node test.js\n';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const log = (msg: string): void => console.error(`chaos: ${msg}`);

function hasBwrap(): boolean {
  try {
    execFileSync('bwrap', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  installSignalHandlers();
  const wallStart = Date.now();
  const root = await mkdtemp(join(tmpdir(), 'autofix-chaos-'));
  setProcessToken(root);
  onCleanup('temporary directory', () =>
    args.keep ? log(`kept ${root}`) : rm(root, { recursive: true, force: true }),
  );
  const sandbox = args.sandbox === 'bwrap' && !hasBwrap() ? 'none' : args.sandbox;
  if (sandbox !== args.sandbox) log('bwrap not found: AUTOFIX_SANDBOX=none');

  // The repository: a real bare remote the workers clone and push to.
  const sample = createSampleRepo({ config: CONFIG });
  const bare = join(root, 'remote.git');
  try {
    execFileSync('git', ['clone', '--quiet', '--bare', sample.dir, bare]);
  } finally {
    sample.cleanup();
  }

  const keys = generateAppKeyPair();
  const github = await startFakeGitHub({ appPublicKey: keys.publicKey });
  onCleanup('fake GitHub', () => github.close());
  github.setPermission('maintainer', 'write');
  github.setFile('.github/autofix.yml', CONFIG);
  const llm = await startFakeLlmServer({ apiKey: API_KEY });
  onCleanup('fake LLM', () => llm.close());
  const llmAnswers = scriptForever(llm);

  const redis = await startBenchRedis(join(root, 'redis'), await freePort('127.0.0.1'));
  onCleanup('redis', () => redis.stop('SIGKILL'));

  const logDir = join(root, 'logs');
  mkdirSync(logDir, { recursive: true });
  const common: Record<string, string> = {
    ...cleanEnv(),
    APP_ID: '1',
    PRIVATE_KEY: keys.privateKey,
    WEBHOOK_SECRET: SECRET,
    ...github.env,
    REDIS_URL: redis.url,
    OPENAI_BASE_URL: llm.baseUrl,
    OPENAI_API_KEY: API_KEY,
    AUTOFIX_MODEL: 'scripted',
    AUTOFIX_SANDBOX: sandbox,
    AUTOFIX_QUEUE_PREFIX: PREFIX,
    // The bench measures recovery, not the per-installation brake.
    AUTOFIX_RATE_LIMIT: 'off',
    AUTOFIX_SHUTDOWN_DEADLINE: '10',
    // A killed worker's job comes back after 15 s instead of a minute (shorter locks lapse under
    // this load while the worker still runs: a second attempt beside the first).
    AUTOFIX_STALLED_AFTER: '15',
    // serve asks GitHub (the fake) to redeliver what failed, every 10 s instead of 5 min.
    AUTOFIX_RECONCILE_INTERVAL_MS: '10000',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    NO_SMEE_SETUP: 'true',
  };
  const servePort = await freePort('127.0.0.1');
  const serveUrl = `http://127.0.0.1:${servePort}`;
  github.redeliverTo({ url: `${serveUrl}${WEBHOOK_PATH}`, secret: SECRET });
  const slots: Slot[] = [];
  const stopSlots = async (): Promise<void> => {
    await Promise.all(slots.map((slot) => slot.stop(15_000)));
  };
  onCleanup('app processes', stopSlots);
  const serve = startSlot({
    name: 'serve',
    args: ['serve', '--no-workers'],
    env: { ...common, PORT: String(servePort), AUTOFIX_WORKDIR: join(root, 'serve') },
    cwd: root,
    logDir,
    healthUrl: `${serveUrl}/healthz`,
  });
  slots.push(serve);
  const workdirs: Record<string, string> = {};
  const workers: Slot[] = [];
  for (let i = 1; i <= args.workers; i++) {
    const name = `worker-${i}`;
    const metricsPort = await freePort('127.0.0.1');
    workdirs[name] = join(root, 'work', name);
    const worker = startSlot({
      name,
      args: ['worker', '--metrics-port', String(metricsPort)],
      env: { ...common, AUTOFIX_WORKDIR: workdirs[name] },
      cwd: root,
      logDir,
      healthUrl: `http://127.0.0.1:${metricsPort}/healthz`,
    });
    slots.push(worker);
    workers.push(worker);
  }
  for (const slot of slots) {
    if (!(await slot.ready(60_000)))
      throw new Error(`${slot.name} did not start: see ${slot.logFile}`);
  }
  log(`serve and ${workers.length} worker(s) up (sandbox ${sandbox}); logs in ${logDir}`);

  const schedule = makeSchedule({
    seed: args.seed,
    runs: args.runs,
    spacingMs: args.spacingS * 1000,
    faultRate: args.faultRate,
    workers: args.workers,
  });
  for (const t of schedule.triggers) github.setIssue(t.issue, TITLE, BODY);

  const t0 = Date.now();
  const elapsed = (): number => Date.now() - t0;
  const controller = createController({ github, redis, serve, workers }, elapsed);
  const deliveries: Delivery[] = [];
  const sending: Promise<void>[] = [];
  let lastProgress = 0;
  const progress = (): void => {
    if (elapsed() - lastProgress < 10_000) return;
    lastProgress = elapsed();
    const answered = deliveries.filter(delivered).length;
    const failures = [...github.comments.values()].filter((c) => c.body.includes(':failure -->'));
    log(
      `+${Math.round(elapsed() / 1000)} s: ${deliveries.length}/${args.runs} sent (${answered} accepted), ` +
        `${controller.injected.filter((f) => f.applied).length} faults, ${github.pulls.length} PRs, ` +
        `${failures.length} failure comments`,
    );
  };
  for (const event of schedule.events) {
    await sleep(event.atMs - elapsed());
    if (event.type === 'trigger') {
      const delivery = newDelivery(event.run, event.issue, bare, elapsed());
      deliveries.push(delivery);
      // Sent by the fake GitHub, as GitHub does: the attempt is on record for the reconciler.
      sending.push(
        github
          .sendDelivery({
            guid: delivery.deliveryId,
            event: delivery.event,
            action: 'labeled',
            payload: JSON.parse(delivery.body) as Record<string, unknown>,
          })
          .then((attempt) => {
            if (attempt.status_code > 0) delivery.status = attempt.status_code;
            else delivery.error = attempt.status;
            delivery.ms = attempt.duration * 1000;
          }),
      );
    } else {
      const injected = controller.inject(event);
      if (args.verbose) {
        log(
          `+${injected.atMs} ms ${injected.applied ? 'fault' : 'skipped'}: ${describeFault(event.fault)}` +
            (injected.note ? ` (${injected.note})` : ''),
        );
      }
    }
    progress();
  }
  await Promise.all(sending);
  await controller.settled();
  log(`all ${args.runs} triggers sent at +${Math.round(elapsed() / 1000)} s; waiting for idle…`);

  const watch = watchQueues(redis.url, PREFIX);
  onCleanup('queue watch', () => watch.close());
  const deadline = Date.now() + args.deadlineS * 1000;
  // Idle also means no trigger still waiting for a redelivery the reconciler will ask for.
  const awaitingRedelivery = (): boolean =>
    deliveries.some((d) => {
      const attempts = github.deliveries.filter((a) => a.guid === d.deliveryId);
      const ok = attempts.some((a) => a.status_code >= 200 && a.status_code < 300);
      return !ok && attempts.length <= 3;
    });
  const quiet = await waitQuiet(
    watch,
    () => slots.every((slot) => slot.up()) && !awaitingRedelivery(),
    deadline,
    (busy) => {
      if (elapsed() - lastProgress < 10_000) return;
      progress();
      if (busy) log(`  unfinished jobs: ${JSON.stringify(busy)}`);
    },
  );
  // The last comment edits and failure reports come from the jobs' own end: let them land.
  await sleep(3000);
  const endMs = elapsed();

  const runs = collectRuns(github, deliveries, t0);
  const branches = remoteBranches(bare, github);
  const left = leftovers(workdirs);
  const jobs = await watch.finished();
  await watch.close();
  await stopSlots();
  await redis.stop('SIGTERM');
  // Processes of ours still alive once everything was stopped (validation commands…).
  const strays = strayProcesses().length;

  const report = {
    args,
    sandbox,
    wallMs: endMs,
    quiet: quiet.quiet,
    ...(quiet.busy ? { busyAtEnd: quiet.busy } : {}),
    faults: controller.injected,
    runs,
    branches,
    leftovers: left,
    processes: slots.map((s) => ({
      name: s.name,
      starts: s.starts,
      unexpectedExits: s.unexpectedExits,
    })),
    llmAnswers,
    ...(jobs ? { jobs } : {}),
    strays,
    startedAt: wallStart,
  };
  for (const line of renderReport(report)) console.log(line);
  const counts = countsOf(report);
  process.exitCode = counts.runs > 0 ? 0 : 1;
}

main()
  .catch((err: unknown) => {
    console.error(`chaos: ${(err as Error).stack ?? String(err)}`);
    process.exitCode = 1;
  })
  .finally(() => cleanupAll());
