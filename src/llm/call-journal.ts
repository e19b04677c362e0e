/**
 * No model call repeated: a run's journal of the answers it got, keyed by a hash of everything
 * that decides an answer (endpoint, model, the messages as sent, tools, sampling parameters). A
 * stage that is retried or resumed asks the same calls again; the client then answers from the
 * journal without sending, charging usage or budget again (`create-llm-client.ts`).
 *
 * The prompts are masked of the run's secrets before they are sent (`mask-prompt.ts`) and the
 * key is computed from what was sent, so the journal holds no secret in clear: only a hash of the
 * prompt, and the answer of a model that never saw one. The app keeps it in Redis
 * (`runs/redis-call-journal.ts`); `createMemoryCallJournal` is for one process and tests.
 */
import { createHash } from 'node:crypto';
import { chatParams } from './chat-params.js';
import type { Completion } from './read-completion.js';
import type { ChatRequest } from './types.js';

/** An answer as the journal keeps it: the completion as received, before normalisation. */
export type JournalAnswer = Completion;

export interface CallJournal {
  get(key: string): Promise<JournalAnswer | undefined>;
  put(key: string, answer: JournalAnswer): Promise<void>;
}

/** The journal key of a call: sha256 of the endpoint and the request body as sent. */
export function journalKey(
  endpoint: string,
  request: ChatRequest,
  messages: ChatRequest['messages'],
): string {
  const body = JSON.stringify({ endpoint, body: chatParams(request, messages) });
  return createHash('sha256').update(body).digest('hex');
}

export function createMemoryCallJournal(): CallJournal & { size(): number } {
  const answers = new Map<string, string>();
  return {
    get: (key) => {
      const text = answers.get(key);
      return Promise.resolve(text === undefined ? undefined : (JSON.parse(text) as JournalAnswer));
    },
    put: (key, answer) => {
      answers.set(key, JSON.stringify(answer));
      return Promise.resolve();
    },
    size: () => answers.size,
  };
}
