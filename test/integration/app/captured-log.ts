/**
 * `autofix serve` and `autofix worker` in-process (startAutofix / startWorkerProcess) with the
 * log written into a string, the way the CLI builds its logger (level info, the secrets'
 * redactor), so tests can read exactly what an operator's log would hold.
 */
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { createRedactor } from '../../../src/artifacts/redact.js';
import { createLogger, type Logger } from '../../../src/logger.js';
import { createMetrics } from '../../../src/scheduler/metrics.js';
import { startAutofix, type AutofixServer } from '../../../src/hosts/app/start-autofix.js';
import { startWorkerProcess } from '../../../src/hosts/app/start-worker-process.js';
import { testOctokit } from '../../helpers/github-client.js';
import { createTestStages } from '../../helpers/test-stages.js';
import { generateAppKeyPair } from '../../helpers/webhooks.js';
import { deleteKeys } from './harness.js';

let keys: ReturnType<typeof generateAppKeyPair> | undefined;

export interface CapturedLog {
  log: Logger;
  text(): string;
}

export function captureLog(
  secrets: string[],
  format: { level?: string; pretty?: boolean } = {},
): CapturedLog {
  let text = '';
  const destination = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return {
    log: createLogger({
      level: format.level ?? 'info',
      redact: createRedactor(secrets),
      destination,
      // As on a terminal (pino-pretty without colours); JSON otherwise, as into a file.
      pretty: format.pretty ?? false,
    }),
    text: () => text,
  };
}

export interface CapturedProcess {
  /** Set for `serve`. */
  app?: AutofixServer;
  text(): string;
  close(): Promise<void>;
}

export async function startCaptured(options: {
  kind: 'serve' | 'worker';
  redisUrl: string;
  webhookSecret: string;
  adminPassword?: string;
  /** The log's level and format (default: info, JSON). */
  log?: { level?: string; pretty?: boolean };
}): Promise<CapturedProcess> {
  keys ??= generateAppKeyPair();
  const prefix = `autofix-captured-${randomUUID().slice(0, 8)}`;
  const captured = captureLog(
    [options.webhookSecret, options.adminPassword].filter((s): s is string => Boolean(s)),
    options.log,
  );
  const common = {
    redisUrl: options.redisUrl,
    prefix,
    log: captured.log,
    redact: createRedactor([options.webhookSecret]),
    metrics: createMetrics(),
  };
  // Nothing here reaches GitHub: no delivery these tests send needs an installation token.
  const github = {
    appId: '1',
    privateKey: keys.privateKey,
    apiUrl: 'http://127.0.0.1:9/api/v3',
    Octokit: testOctokit(),
  };
  const stop =
    options.kind === 'serve'
      ? await startAutofix({
          ...common,
          github: { ...github, webhookSecret: options.webhookSecret },
          host: '127.0.0.1',
          port: 0,
          reconcileIntervalMs: 0,
          ...(options.adminPassword ? { adminPassword: options.adminPassword } : {}),
        })
      : await startWorkerProcess({
          ...common,
          github,
          workers: { processors: createTestStages().processors },
        });
  return {
    ...('url' in stop ? { app: stop } : {}),
    text: captured.text,
    async close() {
      await stop.stop(5000).catch(() => undefined);
      await deleteKeys(options.redisUrl, prefix);
    },
  };
}
