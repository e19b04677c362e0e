/**
 * First-run setup: with no APP_ID/PRIVATE_KEY yet, Probot's manifest flow registers the app from
 * app.yml. Probot only reaches that flow through `run()`, which takes no extra handlers, so we
 * load its setup app ourselves (pinned Probot 14 path, see AGENTS.md) and serve the page at `/`.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Probot, Server } from 'probot';
import type { HttpHandler } from '../http-handler.js';
import type { Logger } from '../logger.js';

type SetupAppFactory = (options: {
  host: string;
  port: number;
  log: unknown;
  updateEnv?: (env: Record<string, string>) => Record<string, string>;
}) => Parameters<Server['loadHandlerFactory']>[0];

async function loadSetupAppFactory(): Promise<SetupAppFactory> {
  const probotEntry = fileURLToPath(import.meta.resolve('probot'));
  const setupPath = join(dirname(probotEntry), 'apps', 'setup.js');
  const mod = (await import(pathToFileURL(setupPath).href)) as { setupAppFactory: SetupAppFactory };
  return mod.setupAppFactory;
}

/** Serves Probot's setup page itself at `/` (Probot answers `/` with a redirect). */
const rootIsSetupPage: HttpHandler = (req) => {
  if (req.method === 'GET' && (req.url === '/' || req.url?.startsWith('/?'))) req.url = '/probot';
  return false;
};

export async function startSetupServer(options: {
  host: string;
  port: number;
  log: Logger;
  handlers: HttpHandler[];
}): Promise<Server> {
  const setupAppFactory = await loadSetupAppFactory();
  const server = new Server({
    host: options.host,
    port: options.port,
    log: options.log as never,
    // Probot needs some credentials to construct; they are never used in setup mode (#1512).
    Probot: Probot.defaults({
      appId: 1,
      privateKey: 'unused in setup mode',
      log: options.log as never,
    }),
  });
  server.addHandler(rootIsSetupPage);
  for (const handler of options.handlers) server.addHandler(handler);
  await server.loadHandlerFactory(
    setupAppFactory({ host: server.host, port: server.port, log: options.log }),
  );
  await server.start();
  return server;
}
