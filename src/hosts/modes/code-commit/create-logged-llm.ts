/**
 * The LLM client of a code-commit run, logging every call in the mode's layout: `query-N.txt`
 * (a header naming endpoint, model and the masked key — the key itself travels only in the
 * Authorization header — then the messages), `query-N-response.json` and `query-N-response.txt`,
 * failed calls included. Everything written passes through the run's redactor.
 */
import { maskSecret } from '../../../artifacts/redact.js';
import type { RunLog } from '../../../artifacts/run-log.js';
import type { Settings } from '../../../config/env.js';
import { createConfiguredLlm } from '../../../llm/create-configured-llm.js';
import { DEFAULT_BASE_URL, type LlmClient } from '../../../llm/create-llm-client.js';
import type { Logger } from '../../../logger.js';

export function createLoggedLlm(
  settings: Settings,
  model: string,
  runLog: RunLog,
  redact: (text: string) => string,
  log: Logger,
): LlmClient {
  const endpoint = settings.openaiBaseUrl ?? DEFAULT_BASE_URL;
  const key = settings.openaiApiKey;
  const header = [
    `# endpoint: ${endpoint}`,
    `# model: ${model}`,
    `# api key: ${key ? `${maskSecret(key)} (sent only in the Authorization header)` : '(none)'}`,
  ].join('\n');
  return createConfiguredLlm(settings, {
    redact,
    log,
    onTranscript: (entry) => {
      const messages = entry.request.messages.map((m) => `### ${m.role}\n\n${m.content}`);
      const n = runLog.query(`${header}\n\n${messages.join('\n\n')}\n`);
      runLog.response(
        n,
        entry.response ?? { error: entry.error },
        entry.responseText || `(no response: ${entry.error ?? 'unknown error'})`,
      );
    },
  });
}
