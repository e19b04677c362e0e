/**
 * Prometheus metrics (served at /metrics). One registry per process, passed in, never global, so
 * tests and several apps in one process do not collide.
 */
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { PR_OUTCOMES } from '../runs/pr-outcomes.js';

export type JobOutcome = 'completed' | 'stopped' | 'retried' | 'failed' | 'requeued' | 'delayed';

export interface AppMetrics {
  registry: Registry;
  /** Stage jobs by stage and outcome. */
  jobs: Counter<'stage' | 'outcome'>;
  /** Time a stage processor ran, by stage and outcome. */
  stageDuration: Histogram<'stage' | 'outcome'>;
  /** LLM tokens; incremented by the pipeline (`kind` = prompt | completion). */
  llmTokens: Counter<'stage' | 'model' | 'kind'>;
  /** Webhook deliveries by event and what intake did with them. */
  deliveries: Counter<'event' | 'result'>;
  /**
   * The missed-delivery reconciler's passes: attempts examined, failed deliveries found, and what
   * became of them (redelivered, handled, exhausted), and passes ended by an error.
   */
  deliveryReconcile: Counter<'result'>;
  /** The app's own PRs merged, closed unmerged, or merged and then reverted (each PR once). */
  prOutcomes: Counter<'outcome'>;
}

export function createMetrics(options: { defaultMetrics?: boolean } = {}): AppMetrics {
  const registry = new Registry();
  if (options.defaultMetrics) collectDefaultMetrics({ register: registry, prefix: 'autofix_' });
  return {
    registry,
    jobs: new Counter({
      name: 'autofix_jobs_total',
      help: 'Stage jobs processed, by stage and outcome',
      labelNames: ['stage', 'outcome'],
      registers: [registry],
    }),
    stageDuration: new Histogram({
      name: 'autofix_stage_duration_seconds',
      help: 'Stage processor run time in seconds',
      labelNames: ['stage', 'outcome'],
      buckets: [0.1, 0.5, 1, 5, 15, 30, 60, 120, 300, 600, 1800],
      registers: [registry],
    }),
    llmTokens: new Counter({
      name: 'autofix_llm_tokens_total',
      help: 'LLM tokens used, by stage, model and kind (prompt or completion)',
      labelNames: ['stage', 'model', 'kind'],
      registers: [registry],
    }),
    deliveries: new Counter({
      name: 'autofix_webhook_deliveries_total',
      help: 'Webhook deliveries by event and intake result',
      labelNames: ['event', 'result'],
      registers: [registry],
    }),
    deliveryReconcile: new Counter({
      name: 'autofix_delivery_reconcile_total',
      help: 'Missed-delivery reconciler: attempts examined, failed deliveries and what became of them, pass errors',
      labelNames: ['result'],
      registers: [registry],
    }),
    prOutcomes: prOutcomesCounter(registry),
  };
}

/** Every outcome is shown from the start (at 0), so a rate over it has a series to start from. */
function prOutcomesCounter(registry: Registry): Counter<'outcome'> {
  const counter = new Counter<'outcome'>({
    name: 'autofix_pr_outcomes_total',
    help: 'Pull requests the app opened, by outcome: merged, closed (unmerged), reverted',
    labelNames: ['outcome'],
    registers: [registry],
  });
  for (const outcome of PR_OUTCOMES) counter.inc({ outcome }, 0);
  return counter;
}
