import { createLlmClient } from '../../../src/llm/create-llm-client.js';
import { startFakeLlmServer, type FakeLlmServer } from '../../helpers/fake-llm-server.js';

/**
 * Issue #33: the client says when an answer was cut off at the output limit, whatever way the
 * server reports it. Each response below is sent over HTTP in the shape that server sends.
 */

const ask = { model: 'any-model', messages: [{ role: 'user' as const, content: 'fix it' }] };
const CUT =
  '--- a/src/math.js\n+++ b/src/math.js\n@@ -1,3 +1,3 @@\n export function add(a, b) {\n-  return a - b;';

let llm: FakeLlmServer;
beforeEach(async () => {
  llm = await startFakeLlmServer();
});
afterEach(async () => {
  await llm.close();
});

const client = () => createLlmClient({ baseUrl: llm.baseUrl, apiKey: 'sk-test-0123456789' });

/** A chat completion as an OpenAI-compatible server sends it, with `choice` fields merged in. */
function completion(choice: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return {
    status: 200,
    body: {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 1_700_000_000,
      model: 'any-model',
      choices: [{ index: 0, message: { role: 'assistant', content: CUT }, ...choice }],
      usage: { prompt_tokens: 120, completion_tokens: 64, total_tokens: 184 },
      ...extra,
    },
  };
}

describe('an answer cut off at the output limit', () => {
  it.each([
    [
      'OpenAI: finish_reason "length"',
      completion({ finish_reason: 'length' }),
      'finish_reason "length"',
    ],
    [
      'a Gemini-style endpoint: finish_reason "MAX_TOKENS"',
      completion({ finish_reason: 'MAX_TOKENS' }),
      'finish_reason "MAX_TOKENS"',
    ],
    [
      'an Anthropic-style endpoint: finish_reason "max_tokens"',
      completion({ finish_reason: 'max_tokens' }),
      'finish_reason "max_tokens"',
    ],
    [
      "OpenAI's vision preview: finish_details instead of finish_reason",
      completion({ finish_details: { type: 'max_tokens' } }),
      'finish_details.type "max_tokens"',
    ],
    [
      'llama.cpp with __verbose: finish_reason "stop" but stop_type "limit"',
      completion(
        { finish_reason: 'stop' },
        { __verbose: { stop: true, stop_type: 'limit', truncated: false, stopping_word: '' } },
      ),
      'stop_type "limit"',
    ],
    [
      'llama.cpp with __verbose: the context filled up (truncated: true)',
      completion(
        { finish_reason: 'stop' },
        { __verbose: { stop: true, stop_type: 'none', truncated: true } },
      ),
      'truncated: true',
    ],
    [
      "a gateway that passes Ollama's done_reason",
      completion({ finish_reason: 'stop' }, { done: true, done_reason: 'length' }),
      'done_reason "length"',
    ],
  ])('is reported as cut: %s', async (_, reply, why) => {
    llm.enqueue(reply);
    const result = await client().chat(ask);
    expect(result.truncated).toBe(why);
    expect(result.text).toBe(CUT);
  });

  it.each([
    ['no finish reason at all', null],
    ['"stop" from a server that never says "length" (older Ollama)', 'stop'],
  ])('is reported as cut when usage reaches max_tokens with %s', async (_, reason) => {
    llm.enqueue(
      completion(
        { finish_reason: reason },
        {
          usage: { prompt_tokens: 120, completion_tokens: 64, total_tokens: 184 },
        },
      ),
    );
    const result = await client().chat({ ...ask, maxTokens: 64 });
    expect(result.truncated).toBe('usage.completion_tokens 64 reached max_tokens 64');
  });
});

describe('an answer that ended by itself', () => {
  it('is not reported as cut: "stop" under max_tokens, llama.cpp stop_type "eos", no max_tokens asked', async () => {
    llm.enqueue(
      completion({ finish_reason: 'stop' }),
      completion({ finish_reason: 'stop' }, { __verbose: { stop_type: 'eos', truncated: false } }),
      completion({ finish_reason: null }),
    );
    expect((await client().chat({ ...ask, maxTokens: 65 })).truncated).toBeNull();
    expect((await client().chat(ask)).truncated).toBeNull();
    expect((await client().chat(ask)).truncated).toBeNull();
  });
});
