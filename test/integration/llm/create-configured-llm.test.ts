import { createRedactor } from '../../../src/artifacts/redact.js';
import { isAutofixError } from '../../../src/errors.js';
import { createConfiguredLlm } from '../../../src/llm/create-configured-llm.js';
import type { TranscriptEntry } from '../../../src/llm/types.js';
import { silentLogger } from '../../../src/logger.js';
import { startFakeLlmServer, type FakeLlmServer } from '../../helpers/fake-llm-server.js';

const API_KEY = 'sk-configured-0123456789abcdef';
const ask = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: 'hello' }] };

let llm: FakeLlmServer;
beforeEach(async () => {
  llm = await startFakeLlmServer();
});
afterEach(async () => {
  await llm.close();
});

describe('createConfiguredLlm', () => {
  it("sends to the settings' endpoint with their key, the run's secrets masked", async () => {
    llm.enqueue('hi');
    const entries: TranscriptEntry[] = [];
    const client = createConfiguredLlm(
      { openaiBaseUrl: llm.baseUrl, openaiApiKey: API_KEY },
      {
        redact: createRedactor(['run-secret-0123456789']),
        log: silentLogger,
        onTranscript: (entry) => void entries.push(entry),
      },
    );
    const result = await client.chat({
      ...ask,
      messages: [{ role: 'user', content: 'the token is run-secret-0123456789' }],
    });
    expect(result.text).toBe('hi');
    expect(client.endpoint).toBe(llm.baseUrl);
    const [request] = llm.chatRequests();
    expect(request?.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(request?.rawBody).not.toContain('run-secret-0123456789');
    expect(entries.map((e) => e.responseText)).toEqual(['hi']);
  });

  it('sends no Authorization header without a key and has no budget unless given one', async () => {
    llm.enqueue('hi');
    const client = createConfiguredLlm(
      { openaiBaseUrl: llm.baseUrl },
      { redact: (text) => text, log: silentLogger },
    );
    await client.chat(ask);
    expect(llm.chatRequests()[0]?.headers.authorization).toBeUndefined();
    expect(client.usage.totals().budget).toBeUndefined();
  });

  it('refuses a call once the budget it was given is spent', async () => {
    llm.enqueue({ content: 'long answer', usage: { prompt_tokens: 50, completion_tokens: 60 } });
    const client = createConfiguredLlm(
      { openaiBaseUrl: llm.baseUrl },
      { redact: (text) => text, log: silentLogger, budget: 100 },
    );
    expect(client.usage.totals().budget).toBe(100);
    const err: unknown = await client.chat(ask).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isAutofixError(err) && err.code).toBe('BUDGET_EXCEEDED');
    expect(client.usage.totals().totalTokens).toBe(110);
  });
});
