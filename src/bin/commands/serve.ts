import { Command } from 'commander';
import { Probot, Server } from 'probot';
import { createRedactor } from '../../artifacts/redact.js';
import { loadDotEnv } from '../../config/dotenv.js';
import { readSettings } from '../../config/env.js';
import { createApp } from '../../index.js';
import { createLogger } from '../../logger.js';
import { checkRedis } from '../../queue/check-redis.js';
import { healthz } from '../../server/healthz.js';
import { startSetupServer } from '../../server/setup-mode.js';

export function serveCommand(): Command {
  return new Command('serve')
    .description(
      'Serve GitHub webhooks (and run job processors in-process unless --no-workers). ' +
        "Without APP_ID/PRIVATE_KEY it serves Probot's setup page that registers the app from app.yml.",
    )
    .option('--no-workers', 'only take webhooks; run `autofix worker` processes separately')
    .action(async () => {
      loadDotEnv('.env', process.env);
      const settings = readSettings(process.env);
      const log = createLogger({
        level: settings.logLevel,
        redact: createRedactor(settings.secrets),
      });
      const redis = await checkRedis(settings.redisUrl);
      log.info(`Redis ${redis.version} reachable (maxmemory-policy=${redis.maxmemoryPolicy})`);
      const host = settings.host ?? '0.0.0.0';
      if (!settings.appId || !settings.privateKey) {
        const server = await startSetupServer({
          host,
          port: settings.port,
          log,
          handlers: [healthz],
        });
        log.info(
          `No GitHub App credentials yet: open http://localhost:${server.port} to register Autofix from app.yml.`,
        );
        return;
      }
      const server = new Server({
        host,
        port: settings.port,
        log: log as never,
        Probot: Probot.defaults({
          appId: settings.appId,
          privateKey: settings.privateKey,
          secret: settings.webhookSecret ?? '',
          baseUrl: settings.githubApiUrl,
          log: log as never,
        }),
      });
      await server.load(createApp({ handlers: [healthz] }));
      await server.start();
    });
}
