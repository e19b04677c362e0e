/** The compiled CLI (`npm run build` first): startup checks and the serve/worker wiring. */
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { createRedisRunStore } from '../../../src/runs/redis-run-store.js';
import { freePort, runCli, startCli } from '../../helpers/cli.js';
import { startFakeGitHub, type FakeGitHub } from '../../helpers/fake-github.js';
import { deliver, generateAppKeyPair, labeledPayload } from '../../helpers/webhooks.js';
import { deleteKeys, REDIS_URL, waitFor } from './harness.js';
import { startOwnRedis, type OwnRedis } from './own-redis.js';
import { underLoad } from '../../helpers/deadlines.js';

const keys = generateAppKeyPair();
const credentials = { APP_ID: '1', PRIVATE_KEY: keys.privateKey, WEBHOOK_SECRET: 'cli-secret' };

describe('autofix serve and worker', () => {
  let redis: OwnRedis | undefined;
  let github: FakeGitHub | undefined;
  afterEach(async () => {
    await redis?.stop();
    await github?.close();
    redis = undefined;
    github = undefined;
  });

  it.each([['serve'], ['worker']])(
    '%s refuses to start when Redis may evict keys (maxmemory-policy allkeys-lru)',
    async (command) => {
      redis = await startOwnRedis(['--maxmemory-policy', 'allkeys-lru']);
      const r = await runCli([command], { env: { ...credentials, REDIS_URL: redis.url } });
      expect(r.code).not.toBe(0);
      expect(r.stderr).toContain('maxmemory-policy=allkeys-lru');
      expect(r.stderr).toContain('noeviction');
    },
  );

  it('serve --no-workers queues a signed webhook; worker picks it up; both stop on SIGTERM', async () => {
    github = await startFakeGitHub({ appPublicKey: keys.publicKey });
    github.setPermission('maintainer', 'admin');
    const port = await freePort();
    const prefix = `autofix-cli-${randomUUID().slice(0, 8)}`;
    const env = { ...credentials, ...github.env, HOST: '127.0.0.1', REDIS_URL, LOG_LEVEL: 'info' };
    const serve = startCli(['serve', '--no-workers', '--queue-prefix', prefix], {
      env: { ...env, PORT: String(port) },
    });
    let worker: ReturnType<typeof startCli> | undefined;
    const triage = new Queue('triage', { connection: { url: REDIS_URL }, prefix });
    const exited = (child: ChildProcess): Promise<number | null> =>
      child.exitCode !== null
        ? Promise.resolve(child.exitCode)
        : new Promise((resolve) => child.once('exit', resolve));
    try {
      const url = `http://127.0.0.1:${port}`;
      await waitFor(
        async () => (await fetch(`${url}/healthz`).catch(() => undefined))?.ok || undefined,
        underLoad(20_000),
        'serve',
      );
      const payload = labeledPayload({
        issueNumber: 3,
        cloneUrl: `http://${github.host}/Codertocat/Hello-World.git`,
      });
      const res = await deliver(url, { event: 'issues', payload, secret: 'cli-secret' });
      expect(res.status).toBe(200);
      // serve admits the trigger (config, permission) and queues the run's first stage.
      // A stage job names its run (fair share queues it with a priority); the run is a record.
      const [job] = await waitFor(async () => {
        const waiting = await triage.getJobs(['wait', 'prioritized']);
        return waiting.length > 0 ? waiting : undefined;
      });
      const records = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
      const run = await createRedisRunStore(records, prefix)
        .get((job!.data as { runId: string }).runId)
        .finally(() => records.disconnect());
      expect(run).toMatchObject({ issue: { number: 3 }, trigger: { kind: 'label' } });

      serve.child.kill('SIGTERM');
      expect(await exited(serve.child)).toBe(0);
      expect(serve.output()).toContain('SIGTERM: stopping');

      worker = startCli(['worker', '--queue-prefix', prefix, '--shutdown-deadline', '3'], { env });
      // The queue layer reacts and opens the status comment before the stage itself runs.
      await waitFor(
        () => github!.calls('POST', /\/issues\/3\/reactions$/)[0],
        underLoad(20_000),
        'the 👀 reaction',
      );
      await waitFor(
        () => [...github!.comments.values()].find((c) => c.body.includes('autofix-run:')),
        underLoad(20_000),
        'the status comment',
      );
      worker.child.kill('SIGTERM');
      expect(await exited(worker.child)).not.toBeNull();
      expect(worker.output()).toContain('SIGTERM: stopping');
    } finally {
      serve.child.kill('SIGKILL');
      worker?.child.kill('SIGKILL');
      await triage.close();
      await deleteKeys(REDIS_URL, prefix);
    }
  });
});
