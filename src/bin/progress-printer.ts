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
  skipped: '–',
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
  // The steps under way, innermost last (setup runs inside reproduce): the live line shows the
  // innermost, and the outer one again once it ends.
  const live: { stage: string; text: string; started: number }[] = [];
  let frame = 0;
  // The live line counts the step's own time: a long `npm ci` shows how long it has run.
  const draw = (): void => {
    const top = live.at(-1);
    if (top)
      stream.write(
        `\r\x1b[2K${FRAMES[frame++ % FRAMES.length]} ${top.text} (${((Date.now() - top.started) / 1000).toFixed(0)}s, ${elapsed()} in all)`,
      );
  };
  const timer = setInterval(draw, 100);
  timer.unref();
  return {
    onEvent: (e) => {
      if (e.status === 'start') {
        const at = live.findIndex((l) => l.stage === e.stage);
        if (at >= 0) live.splice(at);
        live.push({ stage: e.stage, text: `${e.stage}: ${e.message}`, started: Date.now() });
        draw();
        return;
      }
      if (e.heartbeat) return; // the live line already shows it
      stream.write(
        `\r\x1b[2K${MARK[e.status]} ${e.stage}: ${e.message.split('\n')[0]} (${elapsed()})\n`,
      );
      if (e.status !== 'info') {
        const at = live.findIndex((l) => l.stage === e.stage);
        if (at >= 0) live.splice(at);
      }
      draw();
    },
    stop: () => {
      clearInterval(timer);
      if (live.length > 0) stream.write('\r\x1b[2K');
    },
    logStream: new Writable({
      write(chunk: Buffer | string, _encoding, callback) {
        if (live.length > 0) stream.write('\r\x1b[2K');
        stream.write(chunk);
        draw();
        callback();
      },
    }),
  };
}
