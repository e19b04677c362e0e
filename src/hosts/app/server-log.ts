/**
 * The logger Probot's `Server` is given (issue #37). Probot logs every request through pino-http
 * with the whole request and response, headers and all (about 33 lines a request on a terminal),
 * and takes no pino-http options; it also prints its own banner ("Running Probot v…",
 * "Listening on …") and logs a busy port before throwing it. So the Server gets this wrapper:
 *
 * - its `child({ name: 'http' })` (what pino-http writes through) is `requestLog`: one line per
 *   request at info (method, url, status, ms), the headers at debug only;
 * - Probot's banner and its listen error go to debug: Autofix says what it listens on, and a
 *   listen error ends `serve` with its own message (listen-error.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LogFn, Logger } from '../../logger.js';
import { sentMethod } from './head-like-get.js';

/** Pino's levels, which pino-http reads from the logger it is given. */
const LEVELS = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 } as const;

/** What pino-http calls on its logger: `levels`, `child` (with or without options), a method per level. */
interface PinoHttpLogger extends Record<keyof typeof LEVELS, LogFn> {
  levels: { values: typeof LEVELS };
  child(bindings: Record<string, unknown>, options?: unknown): PinoHttpLogger;
}

/** What the log keeps of a request at debug: pino's own serializer's fields. */
function requestDetails(req: IncomingMessage): Record<string, unknown> {
  return {
    method: req.method,
    url: req.url,
    headers: req.headers,
    remoteAddress: req.socket?.remoteAddress,
    remotePort: req.socket?.remotePort,
  };
}

/** A request as it arrived: a mounted app (Bull Board) rewrites `req.url` before it answers. */
interface Arrived {
  req: IncomingMessage;
  method: string | undefined;
  url: string | undefined;
}

/**
 * pino-http's logger: it binds `req` in a child per request (when it arrives) and, when the
 * response ends, logs `{ res, responseTime }`. Written here as one line at info,
 * `GET /healthz 200 - 3ms`, its parts also in `http` (kept in JSON, left out of the terminal's
 * one line: logger.ts), then the headers at debug.
 */
export function requestLog(log: Logger, arrived?: Arrived): PinoHttpLogger {
  const write =
    (level: keyof typeof LEVELS): LogFn =>
    (obj, msg) => {
      const { res, responseTime } = (obj ?? {}) as { res?: ServerResponse; responseTime?: number };
      if (!arrived || !res) return forward(log, level, obj, msg);
      const { method, url } = arrived;
      const http = { method, url, status: res.statusCode, ms: responseTime };
      const line = `${method} ${url} ${res.statusCode} - ${responseTime}ms`;
      // No `err`: pino-http makes one up for any 5xx, and Probot logs a handler's own error.
      log.info({ http }, line);
      log.debug(
        {
          req: { ...requestDetails(arrived.req), method, url },
          res: { statusCode: res.statusCode, headers: res.getHeaders() },
        },
        `${line}: headers`,
      );
    };
  return {
    levels: { values: LEVELS },
    child: (bindings) => {
      const req = bindings.req as IncomingMessage | undefined;
      return requestLog(log, req ? { req, method: sentMethod(req), url: req.url } : arrived);
    },
    trace: write('trace'),
    debug: write('debug'),
    info: write('info'),
    warn: write('warn'),
    error: write('error'),
    fatal: write('fatal'),
  };
}

/** Anything else pino-http logs, at its level (trace as debug, fatal as error). */
function forward(log: Logger, level: keyof typeof LEVELS, obj: unknown, msg?: string): void {
  if (level === 'trace' || level === 'debug') log.debug(obj, msg);
  else if (level === 'info') log.info(obj, msg);
  else if (level === 'warn') log.warn(obj, msg);
  else log.error(obj, msg);
}

/** Probot Server's start-up lines, which Autofix replaces with its own. */
const PROBOT_BANNER = /^(Running Probot v|Listening on )/;

const isListenError = (obj: unknown): boolean =>
  typeof (obj as NodeJS.ErrnoException | undefined)?.syscall === 'string' &&
  (obj as NodeJS.ErrnoException).syscall === 'listen';

/** The logger to give Probot's `Server` (see the top of this file). */
export function probotServerLog(log: Logger): Logger {
  const http = log.child({ name: 'http' });
  return {
    debug: (obj, msg) => log.debug(obj, msg),
    info: (obj, msg) =>
      typeof obj === 'string' && PROBOT_BANNER.test(obj) ? log.debug(obj, msg) : log.info(obj, msg),
    warn: (obj, msg) => log.warn(obj, msg),
    error: (obj, msg) => (isListenError(obj) ? log.debug(obj, msg) : log.error(obj, msg)),
    child: (bindings) =>
      bindings.name === 'http' ? (requestLog(http) as unknown as Logger) : log.child(bindings),
  };
}
