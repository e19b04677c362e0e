/** What a stage job needs from the process that runs it (built once per worker pool). */
import type { InstallationAuth } from '../github/installation-auth.js';
import type { Logger } from '../logger.js';
import type { InstallationLimiter } from './installation-limiter.js';
import type { AppMetrics } from './metrics.js';
import type { RunRegistry } from '../runs/run-registry.js';
import type { StageQueues } from './stage-queues.js';
import type { StatusPublisher } from '../runs/status-publisher.js';
import type { RunFailedHook, StageProcessors } from '../runs/types.js';
import type { Run, RunStore } from '../runs/run-record.js';
import type { ParkReason } from '../runs/run-record.js';
import type { StageName } from '../contracts.js';
import type { BudgetCaps } from '../runs/budget-caps.js';
import type { SpendLedger } from '../runs/spend-ledger.js';
import type { CallJournal } from '../llm/call-journal.js';
import type { RunPageLinks } from '../runs/run-page-link.js';

export interface StageRuntime {
  processors: StageProcessors;
  queues: StageQueues;
  registry: RunRegistry;
  /** Every run's record: jobs carry only the run id. */
  runs: RunStore;
  /** How long a parked run waits before it ends with a note (default 7 days). */
  parkTtlMs?: number;
  /**
   * Asked after a stage continued, before the next one is queued: a parking makes the run wait
   * there (plan approval). Undefined goes on.
   */
  parkAfter?: ParkPolicy;
  /** Money: the caps of a run, the spend ledger, each run's call journal (absent: tokens only). */
  money?: MoneyPorts;
  /** Drops an ended run's call journal (end-run.ts). */
  forgetCalls?: (runId: string) => Promise<void>;
  /** Publishes status comments in the background, ordered across workers. */
  status: StatusPublisher;
  auth: InstallationAuth;
  log: Logger;
  metrics: AppMetrics;
  /** Redacts secrets from everything posted to GitHub. */
  redact: (text: string) => string;
  limiter?: InstallationLimiter;
  onRunFailed?: RunFailedHook;
  /** The run page's signed links (PUBLIC_URL set): status comments name the run's page. */
  runPage?: Pick<RunPageLinks, 'urlOf'>;
  /** Aborted when the worker pool shuts down. */
  shutdown: AbortSignal;
}

/** A decision to park a run after `stage` answered `output`, before its next stage. */
export type ParkPolicy = (
  run: Run,
  stage: StageName,
  output: unknown,
) => Promise<{ reason: ParkReason; message: string } | undefined>;

export interface MoneyPorts {
  caps: (run: Run) => BudgetCaps;
  ledger: SpendLedger;
  journal: (runId: string) => CallJournal;
}
