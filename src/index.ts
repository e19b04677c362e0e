/** The Probot app function: wires webhooks/ to queue/. No logic lives here. */
import type { ApplicationFunction } from 'probot';

export interface AppDeps {
  /** Extra HTTP handlers (health, metrics, dashboard) mounted on Probot's server. */
  handlers?: ((
    req: import('node:http').IncomingMessage,
    res: import('node:http').ServerResponse,
  ) => boolean | Promise<boolean>)[];
}

export function createApp(deps: AppDeps = {}): ApplicationFunction {
  return (app, { addHandler }) => {
    for (const handler of deps.handlers ?? []) addHandler?.(handler);
    app.log.info('autofix app loaded');
  };
}
