/**
 * Per-issue pipeline overhead: time from the signed webhook to the PR request at (fake) GitHub,
 * run by run, with workers in-process. Uses the test stage processors (instant, no LLM, no
 * validation) until the real pipeline is wired, so the whole time is overhead: intake, queue hops,
 * token minting, status comment edits, reactions.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { createRedactor } from '../../src/artifacts/redact.js';
import { createLogger } from '../../src/logger.js';
import { createMetrics } from '../../src/queue/metrics.js';
import { startAutofix } from '../../src/server/start-autofix.js';
import type { FakeGitHub } from '../../test/helpers/fake-github.js';
import { testOctokit } from '../../test/helpers/github-client.js';
import { createTestStages } from '../../test/helpers/test-stages.js';
import { deliver, labeledPayload } from '../../test/helpers/webhooks.js';

export async function deleteKeys(redisUrl: string, prefix: string): Promise<void> {
  const redis = new Redis(redisUrl);
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
    cursor = next;
    if (keys.length > 0) await redis.del(...keys);
  } while (cursor !== '0');
  redis.disconnect();
}

async function until<T>(probe: () => T | undefined, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('overhead run timed out');
    await new Promise((r) => setTimeout(r, 1));
  }
}

export async function measureOverhead(options: {
  github: FakeGitHub;
  privateKey: string;
  secret: string;
  redisUrl: string;
  runs: number;
}): Promise<number[]> {
  const { github } = options;
  const prefix = `autofix-bench-overhead-${randomUUID().slice(0, 8)}`;
  const app = await startAutofix({
    github: {
      appId: '1',
      privateKey: options.privateKey,
      webhookSecret: options.secret,
      apiUrl: github.apiUrl,
      Octokit: testOctokit(),
    },
    redisUrl: options.redisUrl,
    prefix,
    host: '127.0.0.1',
    port: 0,
    log: createLogger({ level: 'silent' }),
    redact: createRedactor(),
    metrics: createMetrics(),
    workers: { processors: createTestStages().processors },
  });
  const samples: number[] = [];
  try {
    for (let i = 0; i < options.runs + 3; i++) {
      const issue = 900_000 + i;
      const branch = `autofix/fix/${issue}-test`;
      const sent = performance.timeOrigin + performance.now();
      await deliver(app.url, {
        event: 'issues',
        payload: labeledPayload({ issueNumber: issue }),
        secret: options.secret,
      });
      const pr = await until(
        () =>
          github
            .calls('POST', /\/pulls$/)
            .find((r) => (r.body as { head?: string }).head === branch),
        20_000,
      );
      // Let the run finish (🚀) before the next one, so runs do not overlap.
      await until(() => github.calls('POST', new RegExp(`/issues/${issue}/reactions$`))[1], 20_000);
      if (i >= 3) samples.push(pr.at - sent); // the first runs warm the JIT and caches
    }
  } finally {
    await app.stop(5000);
    await deleteKeys(options.redisUrl, prefix);
  }
  return samples;
}
