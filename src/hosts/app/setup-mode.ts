/**
 * First-run setup: with no APP_ID/PRIVATE_KEY yet, Probot's manifest flow registers the app from
 * app.yml. Probot only reaches that flow through `run()`, which takes no extra handlers, so we
 * load its setup app ourselves (pinned Probot 14 path, see AGENTS.md) for `/probot/setup` (the
 * manifest's redirect: code → credentials in `.env`) and `/probot/import`, and serve our own
 * setup page at `/` and `/probot` (setup-page.ts: Probot's view breaks the manifest JSON).
 */
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Probot, Server } from 'probot';
import { webhookProxyUrl } from '../../config/webhook-proxy.js';
import type { HttpHandler } from '../../http-handler.js';
import type { Logger } from '../../logger.js';
import { createMetrics } from '../../scheduler/metrics.js';
import { listenError } from './listen-error.js';
import { metricsEndpoint } from './metrics-endpoint.js';
import { findAppYml, setupPage } from './setup-page.js';

type SetupAppFactory = (options: {
  host: string;
  port: number;
  log: unknown;
  updateEnv?: (env: Record<string, string>) => Record<string, string>;
}) => Parameters<Server['loadHandlerFactory']>[0];

/** A module of Probot's `lib/` by file path (not exported by the package). */
async function importProbotLib<T>(...path: string[]): Promise<T> {
  const probotEntry = fileURLToPath(import.meta.resolve('probot'));
  return (await import(pathToFileURL(join(dirname(probotEntry), ...path)).href)) as T;
}

async function loadSetupAppFactory(): Promise<SetupAppFactory> {
  const mod = await importProbotLib<{ setupAppFactory: SetupAppFactory }>('apps', 'setup.js');
  return mod.setupAppFactory;
}

/** GitHub's "new App" URL as Probot's flow builds it (GHE_HOST, GHE_PROTOCOL, GH_ORG). */
async function loadCreateAppUrl(): Promise<() => string> {
  const { ManifestCreation } = await importProbotLib<{
    ManifestCreation: new () => { createAppUrl: string };
  }>('manifest-creation.js');
  const creation = new ManifestCreation();
  return () => creation.createAppUrl;
}

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
  const proxyUrl = webhookProxyUrl();
  server.addHandler(
    setupPage({
      appYmlPath: findAppYml(),
      createAppUrl: await loadCreateAppUrl(),
      webhookProxyUrl: proxyUrl,
      fallbackHost: () => `localhost:${server.port}`,
    }),
  );
  // Process metrics only (nothing is queued yet), so a scraper set up first finds its target.
  server.addHandler(metricsEndpoint(createMetrics({ defaultMetrics: true }).registry));
  for (const handler of options.handlers) server.addHandler(handler);
  await server.loadHandlerFactory(
    setupAppFactory({ host: server.host, port: server.port, log: options.log }),
  );
  await server.start().catch((err: unknown) => {
    throw listenError(err, { host: options.host, port: options.port, setting: 'PORT' });
  });
  if (!proxyUrl) {
    options.log.info(
      'GitHub must reach this server to deliver webhooks: for local development set WEBHOOK_PROXY_URL ' +
        '(README: "Local development: webhook tunnel") before registering the app.',
    );
  }
  return server;
}
