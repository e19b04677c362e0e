/**
 * The one adapter over the `openai` SDK (Chat Completions), for any OpenAI-compatible server.
 * Our retry loop replaces the SDK's (its `maxRetries` is 0) so the attempt count, the waits and
 * the final error are ours. The API key travels only in the Authorization header and is
 * redacted from every message this module produces.
 */
import OpenAI, { APIUserAbortError, OpenAIError } from 'openai';
import type { ChatCompletion } from 'openai/resources/chat/completions';
import { createRedactor } from '../artifacts/redact.js';
import { AutofixError } from '../errors.js';
import { silentLogger, type Logger } from '../logger.js';
import { countMessageTokens, countTokens } from './count-tokens.js';
import {
  abortableSleep,
  classifyLlmError,
  describeEndpoint,
  hintFor,
  type AttemptFailure,
} from './classify-llm-error.js';
import { DEFAULT_RETRY_POLICY, retryDelayMs, type RetryPolicy } from './retry-policy.js';
import { createUsageTracker, type UsageRecord, type UsageTracker } from './usage-tracker.js';
import { maskPrompt } from './mask-prompt.js';
import { normalizeAnswer } from './normalize-answer.js';
import { normalizeToolCalls } from './normalize-tool-calls.js';
import { truncationOf } from './truncation-of.js';
import { wireMessages, wireTools } from './wire-messages.js';
import type { ChatRequest, ChatResult, ToolCall, TranscriptHook } from './types.js';

export const DEFAULT_BASE_URL = 'https://api.openai.com/v1';

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
  redact?: ((text: string) => string) & { known?: (text: string) => string };
  log?: Logger;
  /**
   * Share of the local token estimate taken as certain when checking the budget before a call:
   * the server's tokenizer may count fewer tokens than o200k.
   */
  budgetCertainty?: number;
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
  const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
  const usage = options.usage ?? createUsageTracker();
  const log = options.log ?? silentLogger;
  const sleep = options.sleep ?? abortableSleep;
  const random = options.random ?? Math.random;
  const now = options.now ?? Date.now;
  const certainty = options.budgetCertainty ?? 0.75;
  const keyRedactor = createRedactor([options.apiKey]);
  const redact = (text: string): string =>
    keyRedactor(options.redact ? options.redact(text) : text);
  const runMask = options.redact?.known ?? options.redact;
  const maskIn = (text: string): string => keyRedactor.known(runMask ? runMask(text) : text);
  let calls = 0;

  // Every option the SDK would otherwise read from process.env is set explicitly.
  const sdk = new OpenAI({
    baseURL: baseUrl,
    apiKey: options.apiKey ?? 'unused',
    adminAPIKey: null,
    organization: null,
    project: null,
    webhookSecret: null,
    timeout: timeoutMs,
    maxRetries: 0,
    logLevel: 'off',
    // Without a key, send no Authorization header at all rather than a placeholder.
    ...(options.apiKey ? {} : { defaultHeaders: { Authorization: null } }),
  });

  /** The prompt as it may leave: the run's secrets masked, and each one found reported. */
  function outgoing(request: ChatRequest): ChatRequest['messages'] {
    const { messages, hits } = maskPrompt(request.messages, maskIn);
    if (hits.length > 0)
      log.warn(
        { security: 'secret-in-prompt', stage: request.stage, model: request.model, hits },
        `a prompt held a secret of this run (in ${[...new Set(hits.map((h) => h.source))].join(', ')}); it was masked before sending`,
      );
    return messages;
  }

  async function chat(request: ChatRequest): Promise<ChatResult> {
    const index = ++calls;
    const started = now();
    const messages = outgoing(request);
    const transcriptRequest = {
      messages,
      ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
      ...(request.maxTokens === undefined ? {} : { maxTokens: request.maxTokens }),
    };
    if (usage.totals().budget !== undefined) {
      usage.assertCanSpend(Math.floor(countMessageTokens(messages) * certainty), request.stage);
    }

    let failure: AttemptFailure | undefined;
    let attempt = 0;
    while (attempt < policy.maxAttempts) {
      attempt++;
      failure = undefined;
      let response: ChatCompletion | undefined;
      try {
        response = await sdk.chat.completions.create(
          {
            model: request.model,
            messages: wireMessages(messages),
            ...(request.tools && request.tools.length > 0
              ? {
                  tools: wireTools(request.tools),
                  ...(request.toolChoice ? { tool_choice: request.toolChoice } : {}),
                }
              : {}),
            ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
            ...(request.maxTokens === undefined ? {} : { max_tokens: request.maxTokens }),
            ...(request.jsonMode ? { response_format: { type: 'json_object' as const } } : {}),
          },
          { ...(request.signal ? { signal: request.signal } : {}), maxRetries: 0 },
        );
      } catch (err) {
        // Cancellation and our own bugs are not outages: let them through unchanged.
        if (err instanceof APIUserAbortError || request.signal?.aborted) throw err;
        if (!(err instanceof OpenAIError)) throw err;
        failure = classifyLlmError(err, now(), timeoutMs);
      }
      const choice = response?.choices?.[0];
      if (response && choice) {
        const calls = normalizeToolCalls(
          choice.message ?? {},
          new Set((request.tools ?? []).map((t) => t.name)),
          String(index),
        );
        const text = calls.content;
        return finish(request, index, started, attempt, transcriptRequest, {
          text,
          toolCalls: calls.calls,
          toolCallQuirks: calls.quirks,
          refusal: choice.message?.refusal ?? null,
          model: response.model ?? request.model,
          finishReason: choice.finish_reason ?? null,
          truncated: truncationOf(response, request.maxTokens),
          raw: response,
          promptTokens: response.usage?.prompt_tokens ?? countMessageTokens(messages),
          completionTokens: response.usage?.completion_tokens ?? countTokens(text),
        });
      }
      failure ??= { label: 'a response without choices', status: 200, retryable: true };
      if (!failure.retryable || attempt === policy.maxAttempts) break;
      const wait = retryDelayMs(attempt, failure.retryAfterMs, policy, random);
      log.warn(
        { endpoint, model: request.model, attempt, waitMs: wait },
        redact(`LLM request failed (${failure.label}); retrying in ${wait} ms`),
      );
      await sleep(wait, request.signal);
    }

    const last = failure ?? { label: 'no attempt made', status: undefined, retryable: false };
    const message = redact(
      `LLM endpoint ${endpoint} unavailable (model ${request.model}) after ${attempt} attempt${attempt === 1 ? '' : 's'}: last ${last.label}.${hintFor(last.status, request.model)}`,
    );
    await options.onTranscript?.({
      index,
      stage: request.stage,
      model: request.model,
      request: transcriptRequest,
      responseText: '',
      response: undefined,
      usage: undefined,
      attempts: attempt,
      durationMs: now() - started,
      error: message,
    });
    throw new AutofixError('LLM_UNAVAILABLE', message, {
      details: { endpoint, model: request.model, attempts: attempt, status: last.status ?? null },
      recoverable: last.retryable,
    });
  }

  async function finish(
    request: ChatRequest,
    index: number,
    started: number,
    attempts: number,
    transcriptRequest: { messages: ChatRequest['messages'] },
    got: {
      text: string;
      toolCalls: ToolCall[];
      toolCallQuirks: string[];
      refusal: string | null;
      model: string;
      finishReason: string | null;
      truncated: string | null;
      raw: unknown;
      promptTokens: number;
      completionTokens: number;
    },
  ): Promise<ChatResult> {
    let budgetError: Error | undefined;
    let record: UsageRecord;
    try {
      record = usage.record({
        index,
        ...(request.stage === undefined ? {} : { stage: request.stage }),
        model: request.model,
        promptTokens: got.promptTokens,
        completionTokens: got.completionTokens,
      });
    } catch (err) {
      budgetError = err as Error;
      record = usage.records().at(-1)!;
    }
    const callUsage = {
      promptTokens: record.promptTokens,
      completionTokens: record.completionTokens,
      totalTokens: record.totalTokens,
      cost: record.cost,
      priced: record.priced,
    };
    const durationMs = now() - started;
    await options.onTranscript?.({
      index,
      stage: request.stage,
      model: request.model,
      request: transcriptRequest,
      responseText: got.text,
      ...(got.toolCalls.length > 0 ? { toolCalls: got.toolCalls } : {}),
      response: got.raw,
      usage: callUsage,
      attempts,
      durationMs,
    });
    if (budgetError !== undefined) throw budgetError;
    const answer = normalizeAnswer(got.text, { refusal: got.refusal });
    return {
      text: answer.text,
      refusal: answer.refusal,
      model: got.model,
      finishReason: got.finishReason,
      truncated: got.truncated,
      toolCalls: got.toolCalls,
      ...(got.toolCallQuirks.length > 0 ? { toolCallQuirks: got.toolCallQuirks } : {}),
      usage: callUsage,
      raw: got.raw,
      attempts,
      durationMs,
      index,
    };
  }

  return { chat, endpoint, usage };
}
