/** The Probot app function: wires intake/ to the scheduler's queues. No logic lives here. */
import type { ApplicationFunction } from 'probot';
import type { HttpHandler } from './http-handler.js';
import type { AppMetrics } from './scheduler/metrics.js';
import type { TriggerIntake } from './intake/trigger-intake.js';
import type { InstallationLifecycle } from './intake/installation-gone.js';
import { registerWebhooks } from './intake/register-webhooks.js';
import type { RepoConfigLoader } from './intake/repo-config-loader.js';
import type { PrOutcomeStore } from './runs/pr-outcomes.js';

export interface AppDeps {
  /** Extra HTTP handlers (health, metrics, dashboard) mounted on Probot's server. */
  handlers?: HttpHandler[];
  /** Where triggers are persisted; without it no webhook handler is registered. */
  triggers?: TriggerIntake;
  /** The config this process's admission loaded lately: rules out other labels early. */
  configs?: Pick<RepoConfigLoader, 'peek'>;
  /** Ends the queued runs of installations and repositories the app loses. */
  lifecycle?: InstallationLifecycle;
  /** The app's PRs' outcomes (a revert is recorded from its webhook). */
  outcomes?: PrOutcomeStore;
  metrics?: AppMetrics;
}

export function createApp(deps: AppDeps = {}): ApplicationFunction {
  return (app, { addHandler }) => {
    for (const handler of deps.handlers ?? []) addHandler?.(handler);
    if (deps.triggers) {
      registerWebhooks(app, {
        triggers: deps.triggers,
        configs: deps.configs ?? { peek: () => undefined },
        ...(deps.lifecycle ? { lifecycle: deps.lifecycle } : {}),
        ...(deps.outcomes ? { outcomes: deps.outcomes } : {}),
        ...(deps.metrics ? { metrics: deps.metrics } : {}),
      });
    }
    app.log.info('autofix app loaded');
  };
}
