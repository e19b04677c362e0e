import type { AppMetrics } from '../queue/metrics.js';
import type { RunIntake } from '../queue/intake.js';
import type { AppIdentity } from './app-identity.js';
import type { PermissionChecker } from './permission-checker.js';
import type { RepoConfigLoader } from './repo-config-loader.js';

/** What the webhook handlers need; everything with I/O is passed in. */
export interface WebhookDeps {
  intake: RunIntake;
  configs: RepoConfigLoader;
  permissions: PermissionChecker;
  identity: AppIdentity;
  metrics?: AppMetrics;
}
