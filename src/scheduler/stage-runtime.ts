/** What a stage job needs from the process that runs it (built once per worker pool). */
import type { InstallationAuth } from '../github/installation-auth.js';
import type { Logger } from '../logger.js';
import type { InstallationLimiter } from './installation-limiter.js';
import type { AppMetrics } from './metrics.js';
import type { RunRegistry } from '../runs/run-registry.js';
import type { StageQueues } from './stage-queues.js';
import type { StatusPublisher } from '../runs/status-publisher.js';
import type { RunFailedHook, StageProcessors } from '../runs/types.js';

export interface StageRuntime {
  processors: StageProcessors;
  queues: StageQueues;
  registry: RunRegistry;
  /** Publishes status comments in the background, ordered across workers. */
  status: StatusPublisher;
  auth: InstallationAuth;
  log: Logger;
  metrics: AppMetrics;
  /** Redacts secrets from everything posted to GitHub. */
  redact: (text: string) => string;
  limiter?: InstallationLimiter;
  onRunFailed?: RunFailedHook;
  /** Aborted when the worker pool shuts down. */
  shutdown: AbortSignal;
}
