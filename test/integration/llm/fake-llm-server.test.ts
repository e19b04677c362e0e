import OpenAI from 'openai';
import { startFakeLlmServer } from '../../helpers/fake-llm-server.js';

describe('fake LLM server', () => {
  it('serves models, scripted functions and records every request', async () => {
    const llm = await startFakeLlmServer({ models: ['m1', 'm2'] });
    try {
      const sdk = new OpenAI({ baseURL: llm.baseUrl, apiKey: 'k', maxRetries: 0 });
      const models = await sdk.models.list();
      expect(models.data.map((m) => m.id)).toEqual(['m1', 'm2']);

      llm.enqueue((req) => ({
        content: `echo ${req.body.messages[0]?.content}`,
        usage: { prompt_tokens: 7 },
      }));
      const done = await sdk.chat.completions.create({
        model: 'x',
        messages: [{ role: 'user', content: 'hi' }],
      });
      expect(done.choices[0]?.message.content).toBe('echo hi');
      expect(done.usage).toMatchObject({ prompt_tokens: 7, completion_tokens: 2, total_tokens: 9 });

      await expect(
        sdk.chat.completions.create({ model: 'x', messages: [{ role: 'user', content: 'again' }] }),
      ).rejects.toThrow(/no scripted reply left for request #3/);
      expect(llm.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
        'GET /v1/models',
        'POST /v1/chat/completions',
        'POST /v1/chat/completions',
      ]);
      expect(llm.chatRequests()[0]?.headers['content-type']).toBe('application/json');
    } finally {
      await llm.close();
    }
  });
});
