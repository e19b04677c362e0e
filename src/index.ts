/** The Probot app function: wires webhooks/ to queue/. No logic lives here. */
import type { ApplicationFunction } from 'probot';
import type { HttpHandler } from './http-handler.js';
import type { RunIntake } from './queue/intake.js';
import type { AppMetrics } from './queue/metrics.js';
import { createAppIdentity } from './webhooks/app-identity.js';
import { createPermissionChecker } from './webhooks/permission-checker.js';
import { registerWebhooks } from './webhooks/register-webhooks.js';
import { createRepoConfigLoader } from './webhooks/repo-config-loader.js';

export interface AppDeps {
  /** Extra HTTP handlers (health, metrics, dashboard) mounted on Probot's server. */
  handlers?: HttpHandler[];
  /** Where validated triggers go; without it no webhook handler is registered. */
  intake?: RunIntake;
  metrics?: AppMetrics;
  /** How long a repository's `.github/autofix.yml` is reused (default 60 s). */
  configCacheMs?: number;
  /** How long a sender's permission answer is reused (default 30 s). */
  permissionCacheMs?: number;
}

export function createApp(deps: AppDeps = {}): ApplicationFunction {
  return (app, { addHandler }) => {
    for (const handler of deps.handlers ?? []) addHandler?.(handler);
    if (deps.intake) {
      registerWebhooks(app, {
        intake: deps.intake,
        configs: createRepoConfigLoader({ ttlMs: deps.configCacheMs }),
        permissions: createPermissionChecker({ ttlMs: deps.permissionCacheMs }),
        identity: createAppIdentity(() => app.auth()),
        ...(deps.metrics ? { metrics: deps.metrics } : {}),
      });
    }
    app.log.info('autofix app loaded');
  };
}
