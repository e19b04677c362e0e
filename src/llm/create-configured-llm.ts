/**
 * The LLM client of a run, as every entry point builds it: endpoint and key from the operator's
 * settings, the operator's extra model prices, the run's redactor and logger, a token budget or a
 * spend guard, the run's call journal, and a transcript hook for the entry point's own artifacts
 * or metrics.
 */
import type { Settings } from '../config/env.js';
import type { Logger } from '../logger.js';
import type { CallJournal } from './call-journal.js';
import type { RunRedact } from './client-redaction.js';
import { createLlmClient, type LlmClient } from './create-llm-client.js';
import type { SpendGuard } from './spend-guard.js';
import type { TranscriptHook } from './types.js';
import { createUsageTracker } from './usage-tracker.js';

export interface ConfiguredLlmWiring {
  redact: RunRedact;
  log: Logger;
  /**
   * Tokens the calls may spend in all (the tracker refuses with `BUDGET_EXCEEDED`); no budget
   * when absent. Ignored when `spendGuard` is given: the guard then holds the token cap too
   * (`runs/budget.ts`), and parks instead of failing.
   */
  budget?: number;
  /** The run's money check (`runs/run-spend-guard.ts`: `createRunSpendGuard`). */
  spendGuard?: SpendGuard;
  /** The run's answers so far (`runs/redis-call-journal.ts`): no model call repeated. */
  journal?: CallJournal;
  onTranscript?: TranscriptHook;
}

export function createConfiguredLlm(
  settings: Pick<Settings, 'openaiBaseUrl' | 'openaiApiKey'> &
    Partial<Pick<Settings, 'modelPrices'>>,
  wiring: ConfiguredLlmWiring,
): LlmClient {
  const budget = wiring.spendGuard ? undefined : wiring.budget;
  return createLlmClient({
    ...(settings.openaiBaseUrl ? { baseUrl: settings.openaiBaseUrl } : {}),
    ...(settings.openaiApiKey ? { apiKey: settings.openaiApiKey } : {}),
    usage: createUsageTracker({
      ...(budget === undefined ? {} : { budget }),
      ...(settings.modelPrices ? { prices: settings.modelPrices } : {}),
    }),
    redact: wiring.redact,
    log: wiring.log,
    ...(wiring.spendGuard ? { spendGuard: wiring.spendGuard } : {}),
    ...(wiring.journal ? { journal: wiring.journal } : {}),
    ...(wiring.onTranscript ? { onTranscript: wiring.onTranscript } : {}),
  });
}
