/**
 * The logger every module receives through its ports: pino's interface (Probot's own logger is
 * pino), narrowed to what we call. Secrets are redacted before anything is written.
 */
import { pino } from 'pino';
import type { Redactor } from './artifacts/redact.js';

export type LogFn = (objOrMsg: unknown, msg?: string) => void;

export interface Logger {
  debug: LogFn;
  info: LogFn;
  warn: LogFn;
  error: LogFn;
  child(bindings: Record<string, unknown>): Logger;
}

export function createLogger(
  options: { level?: string; redact?: Redactor; destination?: NodeJS.WritableStream } = {},
): Logger {
  const redact = options.redact;
  return pino(
    {
      level: options.level ?? 'info',
      hooks: redact
        ? {
            // One place where every log line passes: redact the serialised line's strings.
            streamWrite: (line: string) => redact(line),
          }
        : {},
    },
    options.destination ?? process.stderr,
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
