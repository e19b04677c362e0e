/**
 * First-run setup: with no APP_ID/PRIVATE_KEY yet, Probot's manifest flow registers the app from
 * app.yml. Probot only reaches that flow through `run()`, which takes no extra handlers, so we
 * load its setup app ourselves (pinned Probot 14 path, see AGENTS.md) for `/probot/setup` (the
 * manifest's redirect: code → credentials in the env file, `AUTOFIX_ENV_FILE` or `.env`) and
 * `POST /probot/import`, and serve our own setup page at `/` and `/probot` (setup-page.ts:
 * Probot's view breaks the manifest JSON) and Probot's import view with the webhook URL filled in.
 * Probot's banner and smee.io channel setup are turned off: the one start-up line is Autofix's
 * (bin/actions/serve.ts).
 */
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Probot, Server } from 'probot';
import { updateDotEnv } from '../../config/dotenv.js';
import { ENV_VARS } from '../../config/env-vars.js';
import { turnOffProbotChannelSetup, webhookProxyUrl } from '../../config/webhook-proxy.js';
import type { HttpHandler } from '../../http-handler.js';
import type { Logger } from '../../logger.js';
import { createMetrics } from '../../scheduler/metrics.js';
import { answerHeadLikeGet } from './head-like-get.js';
import { listenError } from './listen-error.js';
import { metricsEndpoint } from './metrics-endpoint.js';
import { readyz } from './readyz.js';
import { probotServerLog } from './server-log.js';
import { findAppYml, importPage, setupPage, type ImportView } from './setup-page.js';

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

/**
 * Probot's setup flow writes `.env` in the working directory; ours writes the configured env file
 * (in a container, a mounted volume: the image's working directory is not writable) and says so.
 */
export function envFileWriter(envFile: string, log: Logger) {
  const known = new Set(ENV_VARS.map((v) => v.name));
  return (values: Record<string, string>): Record<string, string> => {
    // Only what Autofix reads: the manifest flow also hands over the App's OAuth client secret,
    // which Autofix never uses, so it is not kept in a file beside the others.
    const kept = Object.fromEntries(Object.entries(values).filter(([k]) => known.has(k)));
    const dropped = Object.keys(values).filter((k) => !known.has(k));
    updateDotEnv(envFile, kept);
    log.info(
      `setup: wrote ${Object.keys(kept).join(', ')} to ${envFile}` +
        (dropped.length > 0
          ? ` (not kept, Autofix does not use them: ${dropped.join(', ')})`
          : '') +
        (kept.APP_ID ? '; restart autofix serve (and any workers) to use the new App' : ''),
    );
    return kept;
  };
}

/** Probot's "use an existing GitHub App" view (pinned Probot 14: `views/import.js`). */
async function loadImportView(): Promise<ImportView> {
  return (await importProbotLib<{ importView: ImportView }>('views', 'import.js')).importView;
}

/**
 * Probot's setup app talks through this: its welcome banner (with a URL of its own) goes to
 * debug, since Autofix's start-up line says where to go, and so does its "restart" line (the env
 * file writer says it).
 */
function setupAppLog(log: Logger): Logger {
  return {
    debug: (obj, msg) => log.debug(obj, msg),
    warn: (obj, msg) => log.warn(obj, msg),
    error: (obj, msg) => log.error(obj, msg),
    child: (bindings) => log.child(bindings),
    info: (obj, msg) => {
      // Its "restart" line too: the env file writer says where it wrote and to restart.
      if (typeof obj === 'string') log.debug(obj, msg);
      else log.info(obj, msg);
    },
  };
}

/** Setup mode is never ready to take work: readiness probes see 503 and why. */
const notReady = readyz(() =>
  Promise.resolve(
    'setup mode: no GitHub App credentials yet; register the app on the setup page, then restart',
  ),
);

export async function startSetupServer(options: {
  host: string;
  port: number;
  log: Logger;
  handlers: HttpHandler[];
  /** Where the App's credentials are written (`AUTOFIX_ENV_FILE`, else `.env`). */
  envFile?: string;
}): Promise<Server> {
  const envFile = options.envFile ?? '.env';
  const setupAppFactory = await loadSetupAppFactory();
  // Channels are the operator's (WEBHOOK_PROXY_URL); Probot must not make one of its own.
  turnOffProbotChannelSetup();
  const server = new Server({
    host: options.host,
    port: options.port,
    log: probotServerLog(options.log) as never,
    // Probot needs some credentials to construct; they are never used in setup mode (#1512).
    Probot: Probot.defaults({
      appId: 1,
      privateKey: 'unused in setup mode',
      log: options.log as never,
    }),
  });
  const pages = {
    appYmlPath: findAppYml(),
    createAppUrl: await loadCreateAppUrl(),
    webhookProxyUrl: webhookProxyUrl(),
    fallbackHost: () => `localhost:${server.port}`,
    envFile,
  };
  server.addHandler(setupPage(pages));
  server.addHandler(importPage({ ...pages, view: await loadImportView() }));
  // Process metrics only (nothing is queued yet), so a scraper set up first finds its target.
  server.addHandler(metricsEndpoint(createMetrics({ defaultMetrics: true }).registry));
  server.addHandler(notReady);
  for (const handler of options.handlers) server.addHandler(handler);
  await server.loadHandlerFactory(
    setupAppFactory({
      host: server.host,
      port: server.port,
      log: setupAppLog(options.log),
      updateEnv: envFileWriter(envFile, options.log),
    }),
  );
  const http = await server.start().catch((err: unknown) => {
    throw listenError(err, { host: options.host, port: options.port, setting: 'PORT' });
  });
  answerHeadLikeGet(http);
  return server;
}
