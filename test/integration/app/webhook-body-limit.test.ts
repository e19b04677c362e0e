/**
 * A 100 MB webhook against the compiled `autofix serve` (a child process, so its memory is its
 * own): refused with 413 while it arrives, with and without `content-length`, and the server's
 * peak RSS barely moves. Signed deliveries are still taken before and after.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { createRedisRunStore } from '../../../src/runs/redis-run-store.js';
import { freePort, startCli } from '../../helpers/cli.js';
import { startFakeGitHub, type FakeGitHub } from '../../helpers/fake-github.js';
import { deliver, generateAppKeyPair, labeledPayload, sign } from '../../helpers/webhooks.js';
import { deleteKeys, REDIS_URL, waitFor } from './harness.js';
import { postBody } from './post-body.js';
import { underLoad } from '../../helpers/deadlines.js';

const SECRET = 'body-limit-e2e-secret';
const BODY = 100 * 1024 * 1024;
/** Reading the body whole costs several times its size; the cap keeps it to about 25 MB. */
const MAX_GROWTH = 60 * 1024 * 1024;
const keys = generateAppKeyPair();

/** A field of /proc/<pid>/status in bytes (VmRSS: now, VmHWM: peak since the last reset). */
function memory(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1];
  if (!kb) throw new Error(`no ${field} in /proc/${pid}/status`);
  return Number(kb) * 1024;
}

describe('webhook body limit (autofix serve)', () => {
  let github: FakeGitHub | undefined;
  let serve: ReturnType<typeof startCli> | undefined;
  let triage: Queue | undefined;
  let redis: Redis | undefined;
  let prefix: string | undefined;

  afterEach(async () => {
    serve?.child.kill('SIGKILL');
    await triage?.close();
    redis?.disconnect();
    redis = undefined;
    await github?.close();
    if (prefix) await deleteKeys(REDIS_URL, prefix);
    serve = github = triage = prefix = undefined;
  });

  it('refuses 100 MB with 413 while reading, keeps RSS bounded, and still takes signed deliveries', async () => {
    github = await startFakeGitHub({ appPublicKey: keys.publicKey });
    github.setPermission('maintainer', 'admin');
    const port = await freePort();
    prefix = `autofix-body-${randomUUID().slice(0, 8)}`;
    const cli = startCli(['serve', '--no-workers', '--queue-prefix', prefix], {
      env: {
        APP_ID: '1',
        PRIVATE_KEY: keys.privateKey,
        WEBHOOK_SECRET: SECRET,
        ...github.env,
        HOST: '127.0.0.1',
        PORT: String(port),
        REDIS_URL,
        LOG_LEVEL: 'info',
      },
    });
    serve = cli;
    const url = `http://127.0.0.1:${port}`;
    await waitFor(
      async () => (await fetch(`${url}/healthz`).catch(() => undefined))?.ok || undefined,
      underLoad(20_000),
      'serve to listen',
    );
    triage = new Queue('triage', { connection: { url: REDIS_URL }, prefix });
    const signedLabel = (issueNumber: number) =>
      deliver(url, { event: 'issues', payload: labeledPayload({ issueNumber }), secret: SECRET });

    // A stage job names its run; the run's record has the issue.
    redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
    const records = createRedisRunStore(redis, prefix);
    const issuesQueued = async (): Promise<number[]> => {
      const jobs = await triage!.getJobs(['wait', 'prioritized']);
      const runs = await Promise.all(
        jobs.map((job) => records.get((job.data as { runId: string }).runId)),
      );
      return runs.map((run) => run!.issue.number).sort();
    };
    expect((await signedLabel(1)).status).toBe(200);
    // Admitted (config, permission) before the baseline: that work is not the body's.
    await waitFor(async () => ((await issuesQueued()).length === 1 ? true : undefined));
    const pid = cli.child.pid!;
    const baseline = memory(pid, 'VmRSS');
    writeFileSync(`/proc/${pid}/clear_refs`, '5'); // VmHWM := VmRSS

    for (const chunked of [false, true]) {
      // Signed like a real delivery: only the size is wrong.
      const result = await postBody(`${url}/api/github/webhooks`, {
        bytes: BODY,
        chunked,
        headers: {
          'x-github-event': 'issues',
          'x-github-delivery': randomUUID(),
          'x-hub-signature-256': sign('{}', SECRET),
        },
      });
      expect({ chunked, status: result.status }).toEqual({ chunked, status: 413 });
      expect(result.text).toContain('Payload Too Large');
      // The server hung up: most of the 100 MB never left the client.
      expect(result.sentBytes).toBeLessThan(BODY / 2);
    }
    const growth = memory(pid, 'VmHWM') - baseline;
    expect(growth).toBeLessThan(MAX_GROWTH);

    expect((await signedLabel(2)).status).toBe(200);
    await waitFor(async () => ((await issuesQueued()).length === 2 ? true : undefined));
    expect(await issuesQueued()).toEqual([1, 2]);
    // The shared test Redis has no password: serve says so at start.
    expect(cli.output()).toContain('accepts connections without a password');
  });
});
