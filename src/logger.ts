/**
 * The logger every module receives through its ports: pino's interface (Probot's own logger is
 * pino), narrowed to what we call. Secrets are redacted before anything is written.
 */
import { pino } from 'pino';
import pinoPretty from 'pino-pretty';
import type { Redactor } from './artifacts/redact.js';

export type LogFn = (objOrMsg: unknown, msg?: string) => void;

export interface Logger {
  debug: LogFn;
  info: LogFn;
  warn: LogFn;
  error: LogFn;
  child(bindings: Record<string, unknown>): Logger;
}

/**
 * Request and response headers that carry credentials: Probot's HTTP logger (pino-http) records
 * every request's headers, so the dashboard's basic-auth password, cookies and webhook signatures
 * would be written at the default level. Censored by key, whatever their value (a wrong password
 * is not a known secret, and its base64 form matches no pattern). `*` is the top-level key:
 * `req`, `res`, or anything else that logs a headers object.
 */
const CREDENTIAL_HEADERS = [
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-hub-signature',
  'x-hub-signature-256',
].map((name) => `*.headers["${name}"]`);

/**
 * `pretty`: one readable line per entry (time, level, message, fields) for a person at a
 * terminal; the default is pretty when the destination is a TTY, JSON otherwise (files, log
 * collectors). Redaction happens before either format is written.
 */
export function createLogger(
  options: {
    level?: string;
    redact?: Redactor;
    destination?: NodeJS.WritableStream;
    pretty?: boolean;
  } = {},
): Logger {
  const redact = options.redact;
  const destination = options.destination ?? process.stderr;
  const pretty = options.pretty ?? (destination as Partial<NodeJS.WriteStream>).isTTY === true;
  return pino(
    {
      level: options.level ?? 'info',
      redact: { paths: CREDENTIAL_HEADERS, censor: '[redacted]' },
      hooks: redact
        ? {
            // One place where every log line passes: redact the serialised line's strings.
            streamWrite: (line: string) => redact(line),
          }
        : {},
    },
    pretty
      ? pinoPretty({
          destination,
          sync: true,
          colorize: (destination as Partial<NodeJS.WriteStream>).isTTY === true,
          translateTime: 'SYS:HH:MM:ss',
          // `http`: a request's summary (hosts/app/server-log.ts), already in its message.
          ignore: 'pid,hostname,http',
        })
      : destination,
  );
}

/** A logger that drops everything (tests, `--quiet`). */
export const silentLogger: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  child: () => silentLogger,
};
