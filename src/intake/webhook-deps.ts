import type { AppMetrics } from '../scheduler/metrics.js';
import type { RunIntake } from './run-intake.js';
import type { RunRegistry } from '../runs/run-registry.js';
import type { PrOutcomeStore } from '../runs/pr-outcomes.js';
import type { TriggerIntake } from './trigger-intake.js';
import type { AppIdentity } from './app-identity.js';
import type { InstallationLifecycle } from './installation-gone.js';
import type { PermissionChecker } from './permission-checker.js';
import type { RepoConfigLoader } from './repo-config-loader.js';

/** What the webhook handlers need: they persist triggers and ask GitHub nothing. */
export interface WebhookDeps {
  triggers: TriggerIntake;
  /** Only `peek`: a trigger that the config this process knows rules out is dropped early. */
  configs: Pick<RepoConfigLoader, 'peek'>;
  /** Ends the queued runs of an installation or repositories the app lost (Redis only). */
  lifecycle?: InstallationLifecycle;
  /** The app's PRs' outcomes: a revert is recorded from its payload (Redis only). */
  outcomes?: PrOutcomeStore;
  metrics?: AppMetrics;
}

/** What admission needs, in the trigger's job; everything with I/O is passed in. */
export interface AdmissionDeps {
  intake: RunIntake;
  configs: RepoConfigLoader;
  permissions: PermissionChecker;
  identity: AppIdentity;
  /** Serializes the CI admissions of one PR (the many events one CI run sends). */
  locks: Pick<RunRegistry, 'lock'>;
  /** Where a closed PR's outcome is recorded; without it none is. */
  outcomes?: PrOutcomeStore;
  metrics?: AppMetrics;
}
