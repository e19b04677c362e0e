/**
 * The one adapter over the `openai` SDK (Chat Completions), for any OpenAI-compatible server.
 * Our retry loop replaces the SDK's (its `maxRetries` is 0) so the attempt count, the waits and
 * the final error are ours. The API key travels only in the Authorization header and is
 * redacted from every message this module produces. The steps of a call live beside it: the
 * prompt masked (`client-redaction.ts`), each attempt (`send-once.ts`: `chat-params.ts` builds
 * the body, `read-completion.ts` reads the answer), the retries (`with-retries.ts`), and the
 * end (`settle-answer.ts` with `record-call-usage.ts`, or `fail-unavailable.ts`). Before a call
 * is sent, the run's call journal may answer it (`call-journal.ts`, `replay-answer.ts`: no call,
 * no charge), then the spend guard and the token budget are asked (`check-spend.ts`); after an
 * answer, it is journaled and its cost told to the guard, once per real call.
 */
import { silentLogger, type Logger } from '../logger.js';
import type { ChatCall } from './chat-call.js';
import { transcriptRequestOf } from './chat-params.js';
import { abortableSleep, describeEndpoint, OPENAI_DEFAULT_BASE_URL } from './classify-llm-error.js';
import { clientRedaction, outgoingMessages, type RunRedact } from './client-redaction.js';
import { journalKey, type CallJournal } from './call-journal.js';
import { checkSpend } from './check-spend.js';
import { failUnavailable } from './fail-unavailable.js';
import { createOpenAiSdk } from './openai-sdk.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry-policy.js';
import { sendOnce } from './send-once.js';
import { replayAnswer } from './replay-answer.js';
import { settleAnswer } from './settle-answer.js';
import type { SpendGuard } from './spend-guard.js';
import { createUsageTracker, type UsageTracker } from './usage-tracker.js';
import { withRetries } from './with-retries.js';
import type { CallUsage, ChatRequest, ChatResult, TranscriptHook } from './types.js';

export const DEFAULT_BASE_URL = OPENAI_DEFAULT_BASE_URL;

export interface LlmClientOptions {
  /** OpenAI-compatible base URL, e.g. `http://localhost:11434/v1` for Ollama. */
  baseUrl?: string;
  /** Sent as `Authorization: Bearer …`; omitted entirely when absent (local servers). */
  apiKey?: string;
  /** Per HTTP attempt. */
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  /** Shared per run; a tracker without a budget is created when absent. */
  usage?: UsageTracker;
  /** Called once per call (not per HTTP attempt), also when the call finally fails. */
  onTranscript?: TranscriptHook;
  /**
   * Run-wide redactor applied on top of the API key's. Its `known` (the registered secrets
   * only) masks every prompt before it is sent; a plain function masks prompts whole.
   */
  redact?: RunRedact;
  log?: Logger;
  /**
   * Share of the local token estimate taken as certain when checking the budget before a call:
   * the server's tokenizer may count fewer tokens than o200k.
   */
  budgetCertainty?: number;
  /**
   * The run's money check (`spend-guard.ts`, `runs/run-spend-guard.ts`): asked before every call
   * that is sent, told each answered call's cost. A refusal throws `BUDGET_PAUSED`.
   */
  spendGuard?: SpendGuard;
  /** The run's answers so far (`call-journal.ts`): a call asked again is answered from it. */
  journal?: CallJournal;
  /** Test seams. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
  now?: () => number;
}

export interface LlmClient {
  chat(request: ChatRequest): Promise<ChatResult>;
  /** Base URL without credentials or query, for messages. */
  readonly endpoint: string;
  readonly usage: UsageTracker;
}

export function createLlmClient(options: LlmClientOptions = {}): LlmClient {
  const baseUrl = options.baseUrl ?? DEFAULT_BASE_URL;
  const endpoint = describeEndpoint(baseUrl);
  const timeoutMs = options.timeoutMs ?? 120_000;
  const usage = options.usage ?? createUsageTracker();
  const log = options.log ?? silentLogger;
  const now = options.now ?? Date.now;
  const certainty = options.budgetCertainty ?? 0.75;
  const { redact, maskIn } = clientRedaction(options.apiKey, options.redact);
  const sdk = createOpenAiSdk(baseUrl, options.apiKey, timeoutMs);
  const retries = {
    policy: { ...DEFAULT_RETRY_POLICY, ...options.retry } satisfies RetryPolicy,
    random: options.random ?? Math.random,
    sleep: options.sleep ?? abortableSleep,
  };
  const end = { now, onTranscript: options.onTranscript };
  const { journal } = options;
  let calls = 0;

  async function chat(request: ChatRequest): Promise<ChatResult> {
    const index = ++calls;
    const started = now();
    const messages = outgoingMessages(request, maskIn, log);
    const call: ChatCall = {
      index,
      started,
      request,
      messages,
      transcriptRequest: transcriptRequestOf(request, messages),
    };
    const key = journal ? journalKey(endpoint, request, messages) : undefined;
    const recorded = key === undefined ? undefined : await journal?.get(key);
    if (recorded) return replayAnswer(call, recorded, { ...end, usage });
    await checkSpend(call, { usage, guard: options.spendGuard, certainty });
    const tried = await withRetries(() => sendOnce(sdk, call, timeoutMs, now), {
      ...retries,
      signal: request.signal,
      onRetry: (failure, attempt, waitMs) =>
        log.warn(
          { endpoint, model: request.model, attempt, waitMs },
          redact(`LLM request failed (${failure.label}); retrying in ${waitMs} ms`),
        ),
    });
    if (!('ok' in tried))
      return failUnavailable(call, tried.attempts, tried.failure, { ...end, endpoint, redact });
    const got = tried.ok;
    const charge = async (callUsage: CallUsage): Promise<void> => {
      if (key !== undefined) await journal?.put(key, got);
      await options.spendGuard?.afterCall({
        model: request.model,
        stage: request.stage,
        usage: callUsage,
      });
    };
    return settleAnswer(call, tried.attempts, got, { ...end, usage, charge });
  }

  return { chat, endpoint, usage };
}
