import { jest } from '@jest/globals';
import { commandProgress } from '../../../src/pipeline/code/command-progress.js';
import type { ProgressEvent } from '../../../src/pipeline/ports.js';

// Fake timers: the heartbeat is driven by the clock, never by how busy the machine is.
beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

describe('commandProgress', () => {
  it('shows setup as its own step, says a long command is still running, and how long it took', () => {
    const events: ProgressEvent[] = [];
    const hooks = commandProgress((e) => events.push(e), 'setup', 20);
    // 20 ms beats over 70 ms: three of them.
    hooks.onStart('npm ci', 'setup');
    jest.advanceTimersByTime(70);
    hooks.onResult(
      {
        command: 'npm ci',
        exit_code: 0,
        stdout: '',
        stderr: '',
        duration_ms: 71_250,
        timed_out: false,
        sandboxed: true,
      },
      'setup',
    );
    const count = events.length;
    jest.advanceTimersByTime(100); // no heartbeat after the end
    expect(events.length).toBe(count);
    expect(events[0]).toEqual({ stage: 'setup', status: 'start', message: '`npm ci`' });
    const beats = events.filter((e) => e.heartbeat);
    expect(beats.map((e) => e.message)).toEqual([
      'still running `npm ci` (0 s)',
      'still running `npm ci` (0 s)',
      'still running `npm ci` (0 s)',
    ]);
    expect(events.at(-1)).toEqual({
      stage: 'setup',
      status: 'done',
      message: '`npm ci` passed in 71.3 s',
    });
  });

  it('names the baseline and a failure', () => {
    const events: ProgressEvent[] = [];
    const hooks = commandProgress((e) => events.push(e), 'baseline', 1_000);
    hooks.onStart('npm test', 'validate');
    hooks.onResult(
      {
        command: 'npm test',
        exit_code: 1,
        stdout: '',
        stderr: '',
        duration_ms: 1_500,
        timed_out: false,
        sandboxed: true,
      },
      'validate',
    );
    expect(events.map((e) => [e.stage, e.status, e.message])).toEqual([
      ['validate', 'start', '`npm test` on the base commit (baseline)'],
      ['validate', 'info', '`npm test` on the base commit (baseline) exited with 1 after 1.5 s'],
    ]);
  });
});
