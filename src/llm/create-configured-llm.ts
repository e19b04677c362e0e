/**
 * The LLM client of a run, as every entry point builds it: endpoint and key from the operator's
 * settings, the run's redactor and logger, a token budget when the run has one, and a transcript
 * hook for the entry point's own artifacts or metrics.
 */
import type { Settings } from '../config/env.js';
import type { Logger } from '../logger.js';
import type { RunRedact } from './client-redaction.js';
import { createLlmClient, type LlmClient } from './create-llm-client.js';
import type { TranscriptHook } from './types.js';
import { createUsageTracker } from './usage-tracker.js';

export interface ConfiguredLlmWiring {
  redact: RunRedact;
  log: Logger;
  /** Tokens the calls may spend in all; no budget when absent. */
  budget?: number;
  onTranscript?: TranscriptHook;
}

export function createConfiguredLlm(
  settings: Pick<Settings, 'openaiBaseUrl' | 'openaiApiKey'>,
  wiring: ConfiguredLlmWiring,
): LlmClient {
  return createLlmClient({
    ...(settings.openaiBaseUrl ? { baseUrl: settings.openaiBaseUrl } : {}),
    ...(settings.openaiApiKey ? { apiKey: settings.openaiApiKey } : {}),
    ...(wiring.budget === undefined
      ? {}
      : { usage: createUsageTracker({ budget: wiring.budget }) }),
    redact: wiring.redact,
    log: wiring.log,
    ...(wiring.onTranscript ? { onTranscript: wiring.onTranscript } : {}),
  });
}
