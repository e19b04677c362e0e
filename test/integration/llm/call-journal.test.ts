import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { createRedactor } from '../../../src/artifacts/redact.js';
import { createMemoryCallJournal, type CallJournal } from '../../../src/llm/call-journal.js';
import { createConfiguredLlm } from '../../../src/llm/create-configured-llm.js';
import type { SpendGuard } from '../../../src/llm/spend-guard.js';
import type { TranscriptEntry } from '../../../src/llm/types.js';
import { silentLogger } from '../../../src/logger.js';
import { callJournalKey, createRedisCallJournal } from '../../../src/runs/redis-call-journal.js';
import { RUN_RECORD_TTL_MS } from '../../../src/runs/run-store-keys.js';
import { startFakeLlmServer, type FakeLlmServer } from '../../helpers/fake-llm-server.js';

const SECRET = 'run-secret-5f2c9e8a7b6d';
const ask = (content: string) => ({
  model: 'gpt-4o-mini',
  stage: 'plan',
  temperature: 0,
  messages: [
    { role: 'system' as const, content: 'You plan changes.' },
    { role: 'user' as const, content },
  ],
});

let llm: FakeLlmServer;
beforeEach(async () => {
  llm = await startFakeLlmServer();
});
afterEach(async () => {
  await llm.close();
});

/** A client as a stage job builds it: the run's journal, a guard counting what it is told. */
function stageClient(journal: CallJournal, entries: TranscriptEntry[] = []) {
  const guard = { asked: 0, told: 0 };
  const spendGuard: SpendGuard = {
    beforeCall: () => (guard.asked++, Promise.resolve(undefined)),
    afterCall: () => (guard.told++, Promise.resolve()),
  };
  const client = createConfiguredLlm(
    { openaiBaseUrl: llm.baseUrl },
    {
      redact: createRedactor([SECRET]),
      log: silentLogger,
      journal,
      spendGuard,
      onTranscript: (entry) => void entries.push(entry),
    },
  );
  return { client, guard };
}

describe("the run's call journal", () => {
  it('answers a call asked again from the journal: nothing sent, nothing charged', async () => {
    llm.enqueue({ content: 'the plan', usage: { prompt_tokens: 100, completion_tokens: 20 } });
    const entries: TranscriptEntry[] = [];
    const { client, guard } = stageClient(createMemoryCallJournal(), entries);
    const first = await client.chat(ask('fix #36'));
    const again = await client.chat(ask('fix #36'));
    expect(llm.chatRequests()).toHaveLength(1);
    expect(again).toMatchObject({
      text: 'the plan',
      replayed: true,
      attempts: 0,
      usage: first.usage,
    });
    expect(first.replayed).toBeUndefined();
    expect(guard).toEqual({ asked: 1, told: 1 });
    expect(client.usage.totals()).toMatchObject({ calls: 1, totalTokens: 120 });
    expect(entries.map((e) => [e.replayed ?? false, e.usage?.totalTokens])).toEqual([
      [false, 120],
      [true, undefined],
    ]);
  });

  it('sends a call whose prompt or parameters differ', async () => {
    llm.enqueue('one', 'two', 'three');
    const { client } = stageClient(createMemoryCallJournal());
    await client.chat(ask('fix #36'));
    expect((await client.chat(ask('fix #37'))).text).toBe('two');
    expect((await client.chat({ ...ask('fix #36'), temperature: 0.7 })).text).toBe('three');
    expect(llm.chatRequests()).toHaveLength(3);
  });

  it('records no failed call: the retry asks the server again', async () => {
    llm.enqueue({ status: 400 }, 'answered');
    const journal = createMemoryCallJournal();
    const { client } = stageClient(journal);
    await expect(client.chat(ask('fix #36'))).rejects.toMatchObject({ code: 'LLM_UNAVAILABLE' });
    expect(journal.size()).toBe(0);
    expect((await client.chat(ask('fix #36'))).text).toBe('answered');
    expect(llm.chatRequests()).toHaveLength(2);
  });
});

describe('the call journal in Redis (real Redis, unique prefix)', () => {
  let redis: Redis;
  let prefix: string;
  beforeAll(() => {
    redis = new Redis('redis://127.0.0.1:6379');
  });
  beforeEach(() => {
    prefix = `autofix-journal-${randomUUID().slice(0, 8)}`;
  });
  afterEach(async () => {
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
  });
  afterAll(() => redis.disconnect());

  it("replays a retried stage's calls from another client, kept as long as the run", async () => {
    llm.enqueue({ content: 'the plan', usage: { prompt_tokens: 100, completion_tokens: 20 } });
    const attempt1 = stageClient(createRedisCallJournal(redis, prefix, 'run-36'));
    await attempt1.client.chat(ask('fix #36'));
    const attempt2 = stageClient(createRedisCallJournal(redis, prefix, 'run-36'));
    expect(await attempt2.client.chat(ask('fix #36'))).toMatchObject({
      text: 'the plan',
      replayed: true,
    });
    expect(attempt2.guard).toEqual({ asked: 0, told: 0 });
    expect(llm.chatRequests()).toHaveLength(1);
    const key = callJournalKey(prefix, 'run-36');
    const ttl = await redis.pttl(key);
    expect(ttl).toBeGreaterThan(RUN_RECORD_TTL_MS - 60_000);
    expect(ttl).toBeLessThanOrEqual(RUN_RECORD_TTL_MS);
    // Another run has its own journal.
    llm.enqueue('other run');
    const otherRun = stageClient(createRedisCallJournal(redis, prefix, 'run-37'));
    expect((await otherRun.client.chat(ask('fix #36'))).text).toBe('other run');
  });

  it('keeps no secret of the run in clear: the key is a hash of the masked prompt', async () => {
    llm.enqueue((request) => `I read: ${request.body.messages.at(-1)?.content}`);
    const { client } = stageClient(createRedisCallJournal(redis, prefix, 'run-36'));
    await client.chat(ask(`the token is ${SECRET}`));
    const stored = await redis.hgetall(callJournalKey(prefix, 'run-36'));
    expect(Object.keys(stored)).toEqual([expect.stringMatching(/^[0-9a-f]{64}$/)]);
    expect(JSON.stringify(stored)).not.toContain(SECRET);
    expect(llm.chatRequests()[0]?.rawBody).not.toContain(SECRET);
    // The same prompt, masked the same way, is the same call.
    expect((await client.chat(ask(`the token is ${SECRET}`))).replayed).toBe(true);
  });
});
