import { isAutofixError, type AutofixError } from '../../../src/errors.js';
import { createLlmClient, type LlmClientOptions } from '../../../src/llm/create-llm-client.js';
import type { TranscriptEntry } from '../../../src/llm/types.js';
import { createUsageTracker } from '../../../src/llm/usage-tracker.js';
import { startFakeLlmServer, type FakeLlmServer } from '../../helpers/fake-llm-server.js';

const API_KEY = 'sk-test-SECRETKEY-0123456789abcdef';
const ask = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: 'hello' }] };
const fastRetry = { baseDelayMs: 5, maxDelayMs: 20, maxRetryAfterMs: 2000 };

let llm: FakeLlmServer;
beforeEach(async () => {
  llm = await startFakeLlmServer();
});
afterEach(async () => {
  await llm.close();
});

const client = (options: LlmClientOptions = {}) =>
  createLlmClient({ baseUrl: llm.baseUrl, apiKey: API_KEY, retry: fastRetry, ...options });

async function failure(promise: Promise<unknown>): Promise<AutofixError> {
  try {
    await promise;
  } catch (err) {
    if (isAutofixError(err)) return err;
    throw err;
  }
  throw new Error('expected a failure');
}

describe('LLM client against an OpenAI-compatible server', () => {
  it('returns the text, usage and cost of a completion', async () => {
    llm.enqueue({ content: 'hi there', usage: { prompt_tokens: 1000, completion_tokens: 200 } });
    const result = await client().chat({
      ...ask,
      temperature: 0.2,
      maxTokens: 300,
      stage: 'triage',
    });
    expect(result).toMatchObject({ text: 'hi there', attempts: 1, index: 1, finishReason: 'stop' });
    expect(result.usage).toEqual({
      promptTokens: 1000,
      completionTokens: 200,
      totalTokens: 1200,
      cost: (1000 * 0.15 + 200 * 0.6) / 1e6,
      priced: true,
    });
    expect(llm.chatRequests()[0]?.body).toMatchObject({
      model: 'gpt-4o-mini',
      temperature: 0.2,
      max_tokens: 300,
      messages: ask.messages,
    });
  });

  it('waits as long as a 429 retry-after asks, then succeeds', async () => {
    llm.enqueue({ status: 429, headers: { 'retry-after': '0.3' } }, 'after the wait');
    const waits: number[] = [];
    const started = Date.now();
    const result = await client({
      sleep: (ms) => {
        waits.push(ms);
        return new Promise((r) => setTimeout(r, ms));
      },
    }).chat(ask);
    const [first, second] = llm.chatRequests();
    expect(result).toMatchObject({ text: 'after the wait', attempts: 2 });
    expect(waits).toEqual([300]);
    expect(second!.receivedAt - first!.receivedAt).toBeGreaterThanOrEqual(290);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  });

  it('honours retry-after-ms and HTTP-date forms, capped', async () => {
    llm.enqueue(
      { status: 503, headers: { 'retry-after-ms': '40' } },
      { status: 429, headers: { 'retry-after': new Date(Date.now() + 3_600_000).toUTCString() } },
      'ok',
    );
    const waits: number[] = [];
    await client({
      sleep: (ms) => {
        waits.push(ms);
        return Promise.resolve();
      },
    }).chat(ask);
    expect(waits[0]).toBe(40);
    expect(waits[1]).toBe(fastRetry.maxRetryAfterMs); // an hour, capped
  });

  it('backs off exponentially on 5xx and gives up with LLM_UNAVAILABLE naming endpoint and status', async () => {
    llm.enqueue(...Array.from({ length: 4 }, () => ({ status: 502 })));
    const waits: number[] = [];
    const err = await failure(
      client({
        retry: { ...fastRetry, maxAttempts: 4 },
        sleep: (ms) => {
          waits.push(ms);
          return Promise.resolve();
        },
        random: () => 1,
      }).chat(ask),
    );
    expect(err.code).toBe('LLM_UNAVAILABLE');
    expect(err.recoverable).toBe(true);
    expect(err.message).toContain(`LLM endpoint ${llm.baseUrl} unavailable`);
    expect(err.message).toMatch(/after 4 attempts: last status 502/);
    expect(err.details).toMatchObject({ endpoint: llm.baseUrl, status: 502, attempts: 4 });
    expect(waits).toEqual([5, 10, 20]);
    expect(llm.chatRequests()).toHaveLength(4);
  });

  it('retries a dropped connection', async () => {
    llm.enqueue({ drop: true }, 'recovered');
    const result = await client().chat(ask);
    expect(result).toMatchObject({ text: 'recovered', attempts: 2 });
  });

  it('retries a request that times out', async () => {
    llm.enqueue({ content: 'too late', delayMs: 500 }, 'in time');
    const result = await client({ timeoutMs: 150 }).chat(ask);
    expect(result).toMatchObject({ text: 'in time', attempts: 2 });
  });

  it('says when nothing listens at the base URL', async () => {
    const dead = createLlmClient({
      baseUrl: 'http://127.0.0.1:9/v1',
      retry: { ...fastRetry, maxAttempts: 2 },
    });
    const err = await failure(dead.chat(ask));
    expect(err.code).toBe('LLM_UNAVAILABLE');
    expect(err.message).toMatch(
      /http:\/\/127\.0\.0\.1:9\/v1 .*after 2 attempts: last connection error.*OPENAI_BASE_URL/,
    );
  });

  it('does not retry a rejected key, and never shows the key', async () => {
    llm.enqueue({
      status: 401,
      body: { error: { message: `Incorrect API key provided: ${API_KEY}` } },
    });
    const err = await failure(client().chat(ask));
    expect(err.code).toBe('LLM_UNAVAILABLE');
    expect(err.recoverable).toBe(false);
    expect(err.message).toMatch(/after 1 attempt: last status 401.*Check OPENAI_API_KEY/);
    expect(JSON.stringify({ m: err.message, d: err.details, s: err.stack })).not.toContain(API_KEY);
    expect(err.message).toContain('****ef');
    expect(llm.chatRequests()).toHaveLength(1);
  });

  it('gets a 401 from a server that wants another key', async () => {
    await llm.close();
    llm = await startFakeLlmServer({ apiKey: 'sk-the-right-key-000000', replies: ['never sent'] });
    const err = await failure(client().chat(ask));
    expect(err.message).toMatch(/last status 401/);
    expect(llm.pending()).toBe(1);
  });

  it('sends the API key only in the Authorization header', async () => {
    llm.enqueue({ status: 500, body: { error: { message: `server echoed ${API_KEY}` } } }, 'fine');
    const warnings: string[] = [];
    const log = {
      debug: () => undefined,
      info: () => undefined,
      warn: (_obj: unknown, msg?: string) => void warnings.push(msg ?? ''),
      error: () => undefined,
      child: () => log,
    };
    await client({ log }).chat(ask);
    for (const request of llm.chatRequests()) {
      expect(request.headers.authorization).toBe(`Bearer ${API_KEY}`);
      const others = Object.entries(request.headers).filter(([name]) => name !== 'authorization');
      expect(JSON.stringify(others)).not.toContain(API_KEY);
      expect(request.rawBody).not.toContain(API_KEY);
      expect(request.path).not.toContain(API_KEY);
    }
    expect(warnings.join('\n')).not.toContain(API_KEY);
    expect(warnings.join('\n')).toContain('****ef');
  });

  it('sends no Authorization header at all without a key (local servers)', async () => {
    llm.enqueue('local');
    await createLlmClient({ baseUrl: llm.baseUrl }).chat(ask);
    expect(llm.chatRequests()[0]?.headers.authorization).toBeUndefined();
  });

  it('calls the transcript hook once per call with request and response', async () => {
    llm.enqueue({ status: 503 }, 'first answer', 'second answer');
    const entries: TranscriptEntry[] = [];
    const c = client({ onTranscript: (e) => void entries.push(e) });
    await c.chat({ ...ask, stage: 'triage' });
    await c.chat({ ...ask, stage: 'plan', messages: [{ role: 'user', content: 'plan it' }] });
    expect(entries.map((e) => [e.index, e.stage, e.responseText, e.attempts])).toEqual([
      [1, 'triage', 'first answer', 2],
      [2, 'plan', 'second answer', 1],
    ]);
    expect(entries[1]?.request.messages).toEqual([{ role: 'user', content: 'plan it' }]);
    expect(entries[1]?.response).toMatchObject({ object: 'chat.completion' });
  });

  it('records a finally failed call in the transcript too', async () => {
    llm.enqueue({ status: 400, body: { error: { message: 'bad request' } } });
    const entries: TranscriptEntry[] = [];
    await failure(client({ onTranscript: (e) => void entries.push(e) }).chat(ask));
    expect(entries).toHaveLength(1);
    expect(entries[0]?.error).toMatch(/last status 400/);
  });

  it('estimates usage when the server reports none', async () => {
    llm.enqueue({ content: 'hello world', noUsage: true });
    const result = await client().chat({ ...ask, model: 'llama3' });
    expect(result.usage).toMatchObject({ completionTokens: 2, cost: 0, priced: false });
    expect(result.usage.promptTokens).toBeGreaterThan(0);
  });
});

describe('token budget', () => {
  it('stops the run after a call that went over, keeping its transcript', async () => {
    llm.enqueue({ content: 'a', usage: { prompt_tokens: 700, completion_tokens: 100 } });
    llm.enqueue({ content: 'b', usage: { prompt_tokens: 700, completion_tokens: 100 } });
    const entries: TranscriptEntry[] = [];
    const c = client({
      usage: createUsageTracker({ budget: 1000 }),
      onTranscript: (e) => void entries.push(e),
    });
    await c.chat(ask);
    const err = await failure(c.chat({ ...ask, stage: 'plan' }));
    expect(err.code).toBe('BUDGET_EXCEEDED');
    expect(err.message).toMatch(/by the plan call: 1600 of 1000 tokens/);
    expect(entries).toHaveLength(2);
    expect(c.usage.totals().totalTokens).toBe(1600);
  });

  it('refuses a call whose prompt alone cannot fit, before sending it', async () => {
    const c = client({ usage: createUsageTracker({ budget: 500 }) });
    const big = {
      ...ask,
      stage: 'code',
      messages: [{ role: 'user' as const, content: 'word '.repeat(2000) }],
    };
    const err = await failure(c.chat(big));
    expect(err.code).toBe('BUDGET_EXCEEDED');
    expect(err.message).toMatch(/before the code call/);
    expect(llm.chatRequests()).toHaveLength(0);
  });
});
