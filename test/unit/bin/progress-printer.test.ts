import { Writable } from 'node:stream';
import { createProgressPrinter } from '../../../src/bin/progress-printer.js';
import { stageEndEvent } from '../../../src/pipeline/run-stages.js';

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

describe("autofix run's progress", () => {
  it('shows a reproduce stage that wrote no test as skipped, with the reason', () => {
    const skipped = stageEndEvent(
      'reproduce',
      {
        reproduce: {
          status: 'not-reproduced',
          reason: 'No test runner was found.',
          duration_ms: 1,
        },
      },
      'reproduce',
    );
    expect(skipped).toEqual({
      stage: 'reproduce',
      status: 'skipped',
      message: 'no reproduction: No test runner was found.',
    });
    const pipe = sink(false);
    createProgressPrinter(pipe as unknown as NodeJS.WriteStream).onEvent(skipped);
    expect(pipe.text()).toMatch(/reproduce\s+– no reproduction: No test runner was found\.\n$/);
    expect(pipe.text()).not.toContain('✔');
    const written = stageEndEvent(
      'reproduce',
      {
        reproduce: {
          status: 'reproduced',
          duration_ms: 1,
          path: 't.js',
          content: '',
          command: 'node --test t.js',
          test_name: 't',
          base_failure: '',
          base_exit_code: 1,
        },
      },
      'reproduce',
    );
    expect(written.status).toBe('done');
  });

  it('on a terminal, goes back to the outer step once a step inside it ends', () => {
    const tty = sink(true);
    const printer = createProgressPrinter(tty as unknown as NodeJS.WriteStream);
    printer.onEvent({ stage: 'reproduce', status: 'start', message: 'reproduce' });
    printer.onEvent({ stage: 'setup', status: 'start', message: '`npm ci`' });
    printer.onEvent({ stage: 'setup', status: 'done', message: '`npm ci` passed in 1.0 s' });
    const afterSetup = tty.text().length;
    printer.stop();
    const out = tty.text();
    const setupLine = out.indexOf('✔ setup: `npm ci` passed');
    expect(setupLine).toBeGreaterThan(-1);
    // The live line is reproduce's again, drawn after setup's line.
    expect(out.slice(0, afterSetup).lastIndexOf('reproduce: reproduce')).toBeGreaterThan(setupLine);
  });
});
