import {
  repairLoop,
  sameFailureTwice,
  type RepairTurn,
  type RoundVerdict,
} from '../../../../src/pipeline/code/repair-loop.js';

interface Failure {
  kind: 'build' | 'refused';
  text: string;
}

/** A scripted loop: `verdicts[i]` is what checking round i's answer finds; every call is logged. */
function script(verdicts: RoundVerdict<string, Failure>[]) {
  const events: string[] = [];
  const turns: RepairTurn<Failure>[] = [];
  const steps = {
    ask: (turn: RepairTurn<Failure>) => {
      turns.push(turn);
      events.push(`ask ${turn.round}`);
      return Promise.resolve(`answer ${turn.round}`);
    },
    check: (answer: string, round: number) => {
      events.push(`check ${round} (${answer})`);
      const verdict = verdicts[round];
      if (!verdict) throw new Error(`round ${round} was not scripted`);
      return Promise.resolve(verdict);
    },
    afterFailure: (failure: Failure, round: number) => {
      events.push(`after ${round}: ${failure.text}`);
    },
  };
  return { events, turns, steps };
}

const fail = (text: string, kind: Failure['kind'] = 'build'): RoundVerdict<string, Failure> => ({
  passed: false,
  failure: { kind, text },
});
const pass = (value: string): RoundVerdict<string, Failure> => ({ passed: true, value });

describe('repairLoop', () => {
  it('asks once when the first answer passes', async () => {
    const { events, steps } = script([pass('ok')]);
    const result = await repairLoop({ maxRepairs: 3 }, steps);
    expect(result).toEqual({ passed: true, value: 'ok', repairs: 0, failures: [] });
    expect(events).toEqual(['ask 0', 'check 0 (answer 0)']);
  });

  it('stops at the limit: the first answer and maxRepairs repairs, no more', async () => {
    const { events, steps } = script([fail('a'), fail('b'), fail('c'), pass('too late')]);
    const result = await repairLoop({ maxRepairs: 2 }, steps);
    expect(result).toEqual({
      passed: false,
      failure: { kind: 'build', text: 'c' },
      stopped: 'limit',
      repairs: 2,
      failures: [
        { kind: 'build', text: 'a' },
        { kind: 'build', text: 'b' },
        { kind: 'build', text: 'c' },
      ],
    });
    expect(events).toEqual([
      'ask 0',
      'check 0 (answer 0)',
      'after 0: a',
      'ask 1',
      'check 1 (answer 1)',
      'after 1: b',
      'ask 2',
      'check 2 (answer 2)',
      'after 2: c',
    ]);
  });

  it('with no repairs allowed, asks only once', async () => {
    const { events, steps } = script([fail('a'), pass('never asked')]);
    const result = await repairLoop({ maxRepairs: 0 }, steps);
    expect(result).toMatchObject({ passed: false, stopped: 'limit', repairs: 0 });
    expect(events.filter((e) => e.startsWith('ask'))).toEqual(['ask 0']);
  });

  it('passes on a repair and counts it', async () => {
    const { steps } = script([fail('a'), fail('b'), pass('fixed')]);
    const result = await repairLoop({ maxRepairs: 5 }, steps);
    expect(result).toMatchObject({ passed: true, value: 'fixed', repairs: 2 });
    expect(result.failures.map((f) => f.text)).toEqual(['a', 'b']);
  });

  it('gives each ask the failure of the round before, and every failure so far', async () => {
    const { turns, steps } = script([fail('a'), fail('b'), pass('ok')]);
    await repairLoop({ maxRepairs: 3 }, steps);
    expect(turns).toEqual([
      { round: 0, previous: undefined, failures: [] },
      {
        round: 1,
        previous: { kind: 'build', text: 'a' },
        failures: [{ kind: 'build', text: 'a' }],
      },
      {
        round: 2,
        previous: { kind: 'build', text: 'b' },
        failures: [
          { kind: 'build', text: 'a' },
          { kind: 'build', text: 'b' },
        ],
      },
    ]);
    // A snapshot: what an ask kept is not changed by later rounds.
    expect(turns[1]!.failures).toHaveLength(1);
  });

  it('stops on a refusal when the caller says so, after its afterFailure', async () => {
    const { events, steps } = script([fail('a'), fail('no', 'refused'), pass('never')]);
    const seen: { failure: Failure; earlier: readonly Failure[] }[] = [];
    const result = await repairLoop(
      { maxRepairs: 5 },
      {
        ...steps,
        stopWhen: (failure, earlier) => {
          seen.push({ failure, earlier });
          return failure.kind === 'refused' ? 'the model refused' : undefined;
        },
      },
    );
    expect(result).toMatchObject({
      passed: false,
      stopped: 'stopWhen',
      reason: 'the model refused',
      failure: { kind: 'refused', text: 'no' },
      repairs: 1,
    });
    expect(events).toEqual([
      'ask 0',
      'check 0 (answer 0)',
      'after 0: a',
      'ask 1',
      'check 1 (answer 1)',
      'after 1: no',
    ]);
    expect(seen).toEqual([
      { failure: { kind: 'build', text: 'a' }, earlier: [] },
      { failure: { kind: 'refused', text: 'no' }, earlier: [{ kind: 'build', text: 'a' }] },
    ]);
  });

  it('does not stop on a refusal unless the caller says so', async () => {
    const { steps } = script([fail('no', 'refused'), fail('no', 'refused'), pass('ok')]);
    const result = await repairLoop({ maxRepairs: 5 }, steps);
    expect(result).toMatchObject({ passed: true, repairs: 2 });
  });

  it('sameFailureTwice stops on an identical failure, not on a different one', async () => {
    const { events, steps } = script([fail('a'), fail('b'), fail('b'), pass('never')]);
    const result = await repairLoop(
      { maxRepairs: 5 },
      { ...steps, stopWhen: sameFailureTwice((f: Failure) => f.text) },
    );
    expect(result).toMatchObject({
      passed: false,
      stopped: 'stopWhen',
      reason: 'the same failure as the round before',
      repairs: 2,
    });
    expect(events.filter((e) => e.startsWith('ask'))).toEqual(['ask 0', 'ask 1', 'ask 2']);
  });

  it('asks nothing once the signal is aborted, and rejects with its reason', async () => {
    const controller = new AbortController();
    const { events, steps } = script([fail('a'), pass('never')]);
    const stop = new Error('shutting down');
    const run = repairLoop(
      { maxRepairs: 3, signal: controller.signal },
      {
        ...steps,
        check: async (answer, round) => {
          const verdict = await steps.check(answer, round);
          controller.abort(stop); // aborted while round 0 was being checked
          return verdict;
        },
      },
    );
    await expect(run).rejects.toBe(stop);
    // Round 0's failure is still handled (a rollback must run); no repair is asked.
    expect(events).toEqual(['ask 0', 'check 0 (answer 0)', 'after 0: a']);
  });

  it('asks nothing at all when the signal was aborted before it started', async () => {
    const controller = new AbortController();
    controller.abort();
    const { events, steps } = script([pass('never')]);
    await expect(repairLoop({ maxRepairs: 1, signal: controller.signal }, steps)).rejects.toThrow(
      /abort/i,
    );
    expect(events).toEqual([]);
  });

  it('ends with the error a step throws, without another round', async () => {
    const { events, steps } = script([fail('a'), fail('b'), pass('ok')]);
    const boom = new Error('LLM down');
    const run = repairLoop(
      { maxRepairs: 3 },
      {
        ...steps,
        ask: (turn) => (turn.round === 1 ? Promise.reject(boom) : steps.ask(turn)),
      },
    );
    await expect(run).rejects.toBe(boom);
    expect(events).toEqual(['ask 0', 'check 0 (answer 0)', 'after 0: a']);
  });

  it('refuses a limit that is not a whole number ≥ 0', async () => {
    const { events, steps } = script([pass('ok')]);
    await expect(repairLoop({ maxRepairs: -1 }, steps)).rejects.toThrow(RangeError);
    await expect(repairLoop({ maxRepairs: 1.5 }, steps)).rejects.toThrow(RangeError);
    expect(events).toEqual([]);
  });
});
