import { createRedactor } from '../../../src/artifacts/redact.js';
import { DEFAULT_REPO_CONFIG } from '../../../src/config/repo-config.js';
import { isAutofixError, type AutofixError } from '../../../src/errors.js';
import { countMessageTokens } from '../../../src/llm/count-tokens.js';
import { createConfiguredLlm } from '../../../src/llm/create-configured-llm.js';
import type { CallEstimate, SpendGuard } from '../../../src/llm/spend-guard.js';
import { capOf } from '../../../src/park-reason.js';
import { silentLogger } from '../../../src/logger.js';
import { budgetCapsOf } from '../../../src/runs/budget-caps.js';
import { createMemorySpendLedger } from '../../../src/runs/memory-spend-ledger.js';
import { addUsage, EMPTY_USAGE, type Run } from '../../../src/runs/run-record.js';
import { createRunSpendGuard } from '../../../src/runs/run-spend-guard.js';
import type { SpendLedger } from '../../../src/runs/spend-ledger.js';
import { startFakeLlmServer, type FakeLlmServer } from '../../helpers/fake-llm-server.js';

const NOW = Date.UTC(2026, 10, 28, 16, 0);
const ask = (content: string, model = 'gpt-4.1') => ({
  model,
  stage: 'code',
  maxTokens: 1000,
  messages: [{ role: 'user' as const, content }],
});

let llm: FakeLlmServer;
let ledger: SpendLedger;
beforeEach(async () => {
  llm = await startFakeLlmServer();
  ledger = createMemorySpendLedger();
});
afterEach(async () => {
  await llm.close();
});

/** The run as a stage attempt begins: the fields the guard reads. */
function aRun(config: Partial<Run['config']> = {}): Run {
  return {
    runId: 'run-36',
    installationId: 7,
    sender: 'alice',
    config: { ...DEFAULT_REPO_CONFIG, ...config },
    usage: { ...EMPTY_USAGE },
    extraBudgetUsd: 0,
    resumes: [],
  } as unknown as Run;
}

/** A stage's client with the run's guard (and a token budget the guard replaces). */
function clientOf(run: Run, operator: Parameters<typeof budgetCapsOf>[1] = {}) {
  const caps = budgetCapsOf(run.config, operator);
  const guard = createRunSpendGuard({ run, stage: 'code', caps, ledger, now: () => NOW });
  const client = createConfiguredLlm(
    { openaiBaseUrl: llm.baseUrl },
    { redact: createRedactor([]), log: silentLogger, spendGuard: guard, budget: 10 },
  );
  return { client, guard };
}

async function failure(promise: Promise<unknown>): Promise<AutofixError> {
  try {
    await promise;
  } catch (err) {
    if (isAutofixError(err)) return err;
    throw err;
  }
  throw new Error('expected a failure');
}

describe('the spend guard in the LLM client', () => {
  it('refuses the call that would cross the run cap: the server never receives it', async () => {
    const run = aRun({ cost_budget_usd: 0.01 });
    // gpt-4.1: $2 in, $8 out per million. 1000 in + 500 out = $0.006.
    llm.enqueue(
      { content: 'first', usage: { prompt_tokens: 1000, completion_tokens: 500 } },
      'never sent',
    );
    const { client } = clientOf(run);
    expect((await client.chat(ask('plan the change'))).text).toBe('first');
    // The next one may write 1000 tokens ($0.008): $0.014 would cross $0.01.
    const err = await failure(client.chat(ask('write the change')));
    expect(llm.chatRequests()).toHaveLength(1);
    expect(llm.pending()).toBe(1);
    expect(err).toMatchObject({ code: 'BUDGET_PAUSED', recoverable: false });
    expect(err.message).toBe(
      'paused at $0.0060 of $0.01 during code; `/autofix continue` allows up to $0.01 more',
    );
    expect(capOf(err)).toEqual({ scope: 'run', limit: 0.01, spent: 0.006 });
    expect(err.details).toMatchObject({ model: 'gpt-4.1', stage: 'code' });
  });

  it('counts what earlier stages used: a run that began near its cap stops sooner', async () => {
    const run = { ...aRun({ cost_budget_usd: 0.01 }), usage: { ...EMPTY_USAGE, costUsd: 0.005 } };
    const err = await failure(clientOf(run).client.chat(ask('write the change')));
    expect(capOf(err)).toEqual({ scope: 'run', limit: 0.01, spent: 0.005 });
    expect(llm.chatRequests()).toHaveLength(0);
  });

  it('charges each answered call once, to the ledger and to what the attempt used', async () => {
    const run = aRun({ cost_budget_usd: 1 });
    llm.enqueue(
      { content: 'a', usage: { prompt_tokens: 1000, completion_tokens: 500 } },
      { content: 'b', usage: { prompt_tokens: 2000, completion_tokens: 100 } },
    );
    const { client, guard } = clientOf(run);
    await client.chat(ask('one'));
    await client.chat(ask('two'));
    expect(guard.used()).toMatchObject({
      promptTokens: 3000,
      completionTokens: 600,
      unpricedCalls: 0,
    });
    expect(guard.used().costUsd).toBeCloseTo(0.0108, 10);
    expect(guard.used().maxCallCostUsd).toBeCloseTo(0.006, 10);
    expect(await ledger.read({ installationId: 7, requester: 'alice' }, NOW)).toEqual({
      installationDayUsd: 0.0108,
      installationMonthUsd: 0.0108,
      requesterDayUsd: 0.0108,
    });
  });

  it('lets the run go on once `/autofix continue` added to its cap', async () => {
    const run = aRun({ cost_budget_usd: 0.01 });
    llm.enqueue({ content: 'a', usage: { prompt_tokens: 1000, completion_tokens: 500 } }, 'b');
    const { client, guard } = clientOf(run);
    await client.chat(ask('one'));
    await failure(client.chat(ask('two')));
    // The resumed attempt sees the run as the parking left it, with what continue added.
    const resumed = { ...run, usage: addUsage(run.usage, guard.used()), extraBudgetUsd: 0.01 };
    expect((await clientOf(resumed).client.chat(ask('two'))).text).toBe('b');
    expect(llm.chatRequests()).toHaveLength(2);
  });

  it("stops the first call when the installation's day is spent, and says when it resets", async () => {
    const run = aRun();
    await ledger.add({ installationId: 7, requester: 'bob' }, 4.999, NOW);
    const err = await failure(clientOf(run, { installationDailyUsd: 5 }).client.chat(ask('one')));
    expect(llm.chatRequests()).toHaveLength(0);
    expect(capOf(err)).toEqual({ scope: 'installation-day', limit: 5, spent: 4.999 });
    expect(err.message).toBe(
      "paused at $5.00 of the installation's daily budget of $5.00 during code; it resets at 00:00 UTC (in 8 h), and `/autofix continue` resumes the run once there is room",
    );
  });

  it('counts the tokens of a model without a price against token_budget, with no money charged', async () => {
    const run = aRun({ token_budget: 2500, cost_budget_usd: 0.0001 });
    llm.enqueue({ content: 'a', usage: { prompt_tokens: 1500, completion_tokens: 200 } }, 'never');
    const { client, guard } = clientOf(run, { installationDailyUsd: 0.0001 });
    // Unpriced: neither the run's nor the installation's money cap stops it.
    await client.chat(ask('one', 'llama3.1:8b'));
    // 1700 used + the prompt + 1000 of max_tokens > 2500.
    const err = await failure(client.chat(ask('two', 'llama3.1:8b')));
    expect(llm.chatRequests()).toHaveLength(1);
    expect(capOf(err)).toEqual({ scope: 'run-tokens', limit: 2500, spent: 1700 });
    expect(guard.used()).toMatchObject({ totalTokens: 1700, costUsd: 0, unpricedCalls: 1 });
    expect(
      (await ledger.read({ installationId: 7, requester: 'alice' }, NOW)).installationDayUsd,
    ).toBe(0);
  });

  it("asks with the prompt's tokens plus max_tokens (or the allowance) at the model's prices", async () => {
    const estimates: CallEstimate[] = [];
    const told: Parameters<SpendGuard['afterCall']>[0][] = [];
    const guard: SpendGuard = {
      beforeCall: (estimate) => (estimates.push(estimate), Promise.resolve(undefined)),
      afterCall: (call) => (told.push(call), Promise.resolve()),
    };
    llm.enqueue({ content: 'a', usage: { prompt_tokens: 10, completion_tokens: 5 } }, 'b');
    const client = createConfiguredLlm(
      { openaiBaseUrl: llm.baseUrl },
      { redact: createRedactor([]), log: silentLogger, spendGuard: guard },
    );
    const first = ask('how much is this?', 'gpt-4o-mini');
    await client.chat(first);
    await client.chat({ ...first, maxTokens: undefined });
    const prompt = countMessageTokens(first.messages);
    expect(estimates[0]).toEqual({
      model: 'gpt-4o-mini',
      stage: 'code',
      tokens: prompt + 1000,
      costUsd: (prompt * 0.15 + 1000 * 0.6) / 1e6,
      priced: true,
    });
    expect(estimates[1]?.tokens).toBe(prompt + 4096);
    expect(told.map((t) => [t.model, t.stage, t.usage.totalTokens])).toEqual([
      ['gpt-4o-mini', 'code', 15],
      ['gpt-4o-mini', 'code', expect.any(Number) as number],
    ]);
  });
});
