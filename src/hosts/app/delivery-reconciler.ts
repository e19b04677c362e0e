/**
 * Runs the missed-delivery reconciler (`reconcile-deliveries.ts`) in `serve`: a pass on start, then
 * one every `intervalMs` after the previous pass ended. Nothing escapes the timer: a pass logs its
 * own errors, and anything else is logged here.
 */
import type { Logger } from '../../logger.js';
import type { AppMetrics } from '../../scheduler/metrics.js';
import { octokitHookDeliveries, type AppOctokit } from './hook-deliveries.js';
import { reconcileDeliveries } from './reconcile-deliveries.js';
import type { ReconcileOptions, ReconcileSummary } from './reconcile-pass.js';

export const DEFAULT_RECONCILE_INTERVAL_MS = 5 * 60_000;
/** Longest wait in stop() for a pass under way (its requests are aborted). */
const STOP_WAIT_MS = 3000;

export interface DeliveryReconciler {
  /** No further passes; aborts the one under way and waits for it a little. */
  stop(): Promise<void>;
}

export type DeliveryReconcilerOptions = Omit<ReconcileOptions, 'api' | 'signal' | 'log'> & {
  intervalMs: number;
  /** The App-authenticated (JWT) Octokit; asked for when a pass needs it, until it answers. */
  octokit: () => Promise<AppOctokit>;
  log: Logger;
  metrics?: AppMetrics;
};

function count(metrics: AppMetrics | undefined, summary: ReconcileSummary): void {
  if (!metrics) return;
  for (const result of ['examined', 'failed', 'redelivered', 'handled', 'exhausted'] as const) {
    if (summary[result] > 0) metrics.deliveryReconcile.inc({ result }, summary[result]);
  }
  if (summary.error) metrics.deliveryReconcile.inc({ result: 'error' });
}

export function startDeliveryReconciler(options: DeliveryReconcilerOptions): DeliveryReconciler {
  const { intervalMs, octokit, metrics, ...reconcile } = options;
  const log = options.log.child({ name: 'reconcile-deliveries' });
  const abort = new AbortController();
  let client: Promise<AppOctokit> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;

  const runPass = async (): Promise<void> => {
    try {
      client ??= octokit();
      const api = octokitHookDeliveries(
        await client.catch((err: unknown) => {
          client = undefined;
          throw err;
        }),
        abort.signal,
      );
      const summary = await reconcileDeliveries({ ...reconcile, log, api, signal: abort.signal });
      count(metrics, summary);
    } catch (err) {
      if (!abort.signal.aborted) {
        log.warn(
          { err: err instanceof Error ? err.message : String(err) },
          'delivery reconciliation failed',
        );
        metrics?.deliveryReconcile.inc({ result: 'error' });
      }
    }
  };
  const tick = (): void => {
    timer = undefined;
    if (stopped) return;
    running = runPass().finally(() => {
      running = undefined;
      if (!stopped) {
        timer = setTimeout(tick, intervalMs);
        timer.unref();
      }
    });
  };
  timer = setTimeout(tick, 0);
  timer.unref();
  log.info({ intervalMs }, 'delivery reconciler started');

  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      abort.abort();
      if (!running) return;
      let wait: NodeJS.Timeout | undefined;
      await Promise.race([
        running,
        new Promise<void>((resolve) => {
          wait = setTimeout(resolve, STOP_WAIT_MS);
        }),
      ]);
      clearTimeout(wait);
    },
  };
}
