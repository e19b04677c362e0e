import type { IncomingMessage, ServerResponse } from 'node:http';
import { Command } from 'commander';
import { run } from 'probot';
import { readSettings } from '../../config/env.js';
import { createApp } from '../../index.js';
import { checkRedis } from '../../queue/check-redis.js';

export function serveCommand(): Command {
  return new Command('serve')
    .description(
      'Serve GitHub webhooks (and run job processors in-process unless --no-workers). ' +
        "Without APP_ID/PRIVATE_KEY it serves Probot's setup page that registers the app from app.yml.",
    )
    .option('--no-workers', 'only take webhooks; run `autofix worker` processes separately')
    .action(async () => {
      const settings = readSettings(process.env);
      const redis = await checkRedis(settings.redisUrl);
      console.error(
        `autofix: Redis ${redis.version} reachable (maxmemory-policy=${redis.maxmemoryPolicy})`,
      );
      await run(createApp({ handlers: [healthz] }), {
        env: { ...process.env, PORT: String(settings.port) },
      });
    });
}

function healthz(req: IncomingMessage, res: ServerResponse): boolean {
  if (req.url !== '/healthz') return false;
  res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
  return true;
}
