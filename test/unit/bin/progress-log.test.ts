import { Writable } from 'node:stream';
import { stripVTControlCharacters } from 'node:util';
import { createRedactor } from '../../../src/artifacts/redact.js';
import { createProgressPrinter } from '../../../src/bin/progress-printer.js';
import { createLogger } from '../../../src/logger.js';

/** A stream that records what is written, as a terminal or as a pipe. */
function sink(isTTY: boolean): Writable & { isTTY: boolean; text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _enc, cb) {
      chunks.push(String(chunk));
      cb();
    },
  }) as Writable & { isTTY: boolean; text: () => string };
  stream.isTTY = isTTY;
  stream.text = () => chunks.join('');
  return stream;
}

describe('logs a person reads', () => {
  it('are one readable line per entry on a terminal, redacted, and JSON elsewhere', () => {
    const redact = createRedactor(['sk-secret-value-0123456789']);
    const tty = sink(true);
    createLogger({ destination: tty, redact }).warn(
      { attempt: 2 },
      'LLM call failed with sk-secret-value-0123456789',
    );
    const line = stripVTControlCharacters(tty.text());
    expect(line).toMatch(/^\[\d\d:\d\d:\d\d\] WARN: LLM call failed with \*+89\n {4}attempt: 2\n$/);
    expect(line).not.toContain('{"level"');

    const pipe = sink(false);
    createLogger({ destination: pipe, redact }).warn('plain');
    expect(JSON.parse(pipe.text())).toEqual(expect.objectContaining({ level: 40, msg: 'plain' }));
  });

  it("never share a line with autofix run's live progress line", () => {
    const tty = sink(true);
    const printer = createProgressPrinter(tty as unknown as NodeJS.WriteStream);
    printer.onEvent({ stage: 'setup', status: 'start', message: '`npm ci`' });
    createLogger({ destination: printer.logStream, pretty: true }).warn('retrying the LLM call');
    printer.stop();
    const out = tty.text();
    const at = out.indexOf('WARN');
    // The live line was cleared just before the log line, and drawn again after it.
    expect(out.lastIndexOf('\r\x1b[2K', at)).toBeGreaterThan(out.lastIndexOf('npm ci', at));
    expect(out.indexOf('setup: `npm ci`', at)).toBeGreaterThan(at);
  });
});
