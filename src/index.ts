/** The Probot app function: wires webhooks/ to queue/. No logic lives here. */
import type { ApplicationFunction } from 'probot';
import type { HttpHandler } from './http-handler.js';

export interface AppDeps {
  /** Extra HTTP handlers (health, metrics, dashboard) mounted on Probot's server. */
  handlers?: HttpHandler[];
}

export function createApp(deps: AppDeps = {}): ApplicationFunction {
  return (app, { addHandler }) => {
    for (const handler of deps.handlers ?? []) addHandler?.(handler);
    app.log.info('autofix app loaded');
  };
}
