/**
 * The app's call journal of a run (`llm/call-journal.ts`): one Redis hash
 * `<prefix>:llm-journal:<run id>`, a field per call key (a sha256 of the request as sent, which
 * was masked of the run's secrets) holding the answer as JSON, kept as long as a run's record
 * (`RUN_RECORD_TTL_MS` after the last answer).
 */
import type { Redis } from 'ioredis';
import type { CallJournal, JournalAnswer } from '../llm/call-journal.js';
import { RUN_RECORD_TTL_MS } from './run-store-keys.js';

export function callJournalKey(prefix: string, runId: string): string {
  return `${prefix}:llm-journal:${runId}`;
}

export function createRedisCallJournal(redis: Redis, prefix: string, runId: string): CallJournal {
  const key = callJournalKey(prefix, runId);
  return {
    async get(call) {
      const json = await redis.hget(key, call);
      return json === null ? undefined : (JSON.parse(json) as JournalAnswer);
    },
    async put(call, answer) {
      await redis
        .multi()
        .hset(key, call, JSON.stringify(answer))
        .pexpire(key, RUN_RECORD_TTL_MS)
        .exec();
    },
  };
}
