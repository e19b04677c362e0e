/**
 * Stage progress on stderr: a spinner line rewritten in place on a TTY, plain lines otherwise
 * (CI logs, pipes).
 */
import { Writable } from 'node:stream';
import type { ProgressEvent } from '../pipeline/ports.js';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const MARK: Record<ProgressEvent['status'], string> = {
  start: '…',
  done: '✔',
  failed: '✖',
  info: '·',
};

export interface ProgressPrinter {
  onEvent: (e: ProgressEvent) => void;
  stop: () => void;
  /**
   * Where the run's log lines go: on a TTY the live progress line is cleared before a log line
   * and drawn again after it, so the two never mix on one line.
   */
  logStream: NodeJS.WritableStream;
}

export function createProgressPrinter(stream: NodeJS.WriteStream): ProgressPrinter {
  const started = Date.now();
  const elapsed = (): string => `${((Date.now() - started) / 1000).toFixed(1)}s`;
  if (!stream.isTTY) {
    return {
      onEvent: (e) =>
        stream.write(`[${elapsed()}] ${e.stage.padEnd(8)} ${MARK[e.status]} ${e.message}\n`),
      stop: () => undefined,
      logStream: stream,
    };
  }
  let current = '';
  let stepStarted = started;
  let frame = 0;
  // The live line counts the step's own time: a long `npm ci` shows how long it has run.
  const draw = (): void => {
    if (current)
      stream.write(
        `\r\x1b[2K${FRAMES[frame++ % FRAMES.length]} ${current} (${((Date.now() - stepStarted) / 1000).toFixed(0)}s, ${elapsed()} in all)`,
      );
  };
  const timer = setInterval(draw, 100);
  timer.unref();
  return {
    onEvent: (e) => {
      if (e.status === 'start') {
        current = `${e.stage}: ${e.message}`;
        stepStarted = Date.now();
        draw();
        return;
      }
      if (e.heartbeat) return; // the live line already shows it
      stream.write(
        `\r\x1b[2K${MARK[e.status]} ${e.stage}: ${e.message.split('\n')[0]} (${elapsed()})\n`,
      );
      if (e.status !== 'info') current = '';
      draw();
    },
    stop: () => {
      clearInterval(timer);
      if (current) stream.write('\r\x1b[2K');
    },
    logStream: new Writable({
      write(chunk: Buffer | string, _encoding, callback) {
        if (current) stream.write('\r\x1b[2K');
        stream.write(chunk);
        draw();
        callback();
      },
    }),
  };
}
