/**
 * The ceiling for intake on this machine: a bare Probot 14 app whose `issues.labeled` handler does
 * nothing, behind Probot's own server. Run as a child process: `node bare-probot.js <port>` with
 * WEBHOOK_SECRET and PRIVATE_KEY in the environment.
 */
import { pino } from 'pino';
import { Probot, Server } from 'probot';

const port = Number(process.argv[2]);
const log = pino({ level: 'warn' });
const server = new Server({
  host: '127.0.0.1',
  port,
  log,
  Probot: Probot.defaults({
    appId: 1,
    privateKey: process.env.PRIVATE_KEY ?? '',
    secret: process.env.WEBHOOK_SECRET ?? '',
    log,
  }),
});
await server.load((app) => {
  app.on('issues.labeled', () => Promise.resolve());
});
await server.start();
console.log(`bare probot listening on ${port}`);
