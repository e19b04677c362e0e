/**
 * Bull Board at /admin/queues behind HTTP basic auth (any user name, password ADMIN_PASSWORD).
 * Without a password the dashboard is not mounted at all: it can retry and delete jobs.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import type { Queue } from 'bullmq';
import express from 'express';
import type { HttpHandler } from '../../http-handler.js';

export const ADMIN_PATH = '/admin/queues';

const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

/** Compares digests so the check takes the same time whatever the guess. */
export function passwordMatches(header: string | undefined, password: string): boolean {
  const match = /^Basic\s+(\S+)$/i.exec(header ?? '');
  if (!match?.[1]) return false;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const given = decoded.slice(decoded.indexOf(':') + 1);
  return decoded.includes(':') && timingSafeEqual(digest(given), digest(password));
}

/** 401 with the challenge of the dashboard's realm (the status page at `/` shares it). */
export function askForPassword(res: ServerResponse): void {
  res
    .writeHead(401, { 'www-authenticate': 'Basic realm="autofix admin", charset="UTF-8"' })
    .end('Authentication required\n');
}

export function adminQueues(options: {
  queues: Queue[];
  password: string | undefined;
}): HttpHandler | undefined {
  const { password } = options;
  if (!password) return undefined;
  const serverAdapter = new ExpressAdapter();
  serverAdapter.setBasePath(ADMIN_PATH);
  createBullBoard({
    queues: options.queues.map((q) => new BullMQAdapter(q)),
    // @bull-board/express pins its own copy of @bull-board/api; the shapes match at run time.
    serverAdapter: serverAdapter as unknown as Parameters<
      typeof createBullBoard
    >[0]['serverAdapter'],
  });
  const app = express();
  app.use(ADMIN_PATH, serverAdapter.getRouter() as express.Router);
  const handle = app as unknown as (req: IncomingMessage, res: ServerResponse) => void;

  return (req, res) => {
    const path = req.url?.split('?')[0] ?? '';
    if (path !== ADMIN_PATH && !path.startsWith(`${ADMIN_PATH}/`)) return false;
    if (!passwordMatches(req.headers.authorization, password)) {
      askForPassword(res);
      return true;
    }
    handle(req, res);
    return true;
  };
}
