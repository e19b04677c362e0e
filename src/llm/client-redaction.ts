/**
 * What the LLM client hides: the API key from every message it produces, and the run's secrets
 * from every prompt before it is sent (`mask-prompt.ts`), each one found reported.
 */
import { createRedactor } from '../artifacts/redact.js';
import type { Logger } from '../logger.js';
import { maskPrompt } from './mask-prompt.js';
import type { ChatRequest } from './types.js';

/** A run-wide redactor; its `known` (the registered secrets only) masks prompts when present. */
export type RunRedact = ((text: string) => string) & { known?: (text: string) => string };

export interface ClientRedaction {
  /** For the client's own messages: the run's redactor, then the API key. */
  redact: (text: string) => string;
  /** For prompts on the way out: the run's known secrets, then the API key's known forms. */
  maskIn: (text: string) => string;
}

export function clientRedaction(
  apiKey: string | undefined,
  runRedact?: RunRedact,
): ClientRedaction {
  const keyRedactor = createRedactor([apiKey]);
  const runMask = runRedact?.known ?? runRedact;
  return {
    redact: (text) => keyRedactor(runRedact ? runRedact(text) : text),
    maskIn: (text) => keyRedactor.known(runMask ? runMask(text) : text),
  };
}

/** The prompt as it may leave: the run's secrets masked, and each one found reported. */
export function outgoingMessages(
  request: ChatRequest,
  maskIn: (text: string) => string,
  log: Logger,
): ChatRequest['messages'] {
  const { messages, hits } = maskPrompt(request.messages, maskIn);
  if (hits.length > 0)
    log.warn(
      { security: 'secret-in-prompt', stage: request.stage, model: request.model, hits },
      `a prompt held a secret of this run (in ${[...new Set(hits.map((h) => h.source))].join(', ')}); it was masked before sending`,
    );
  return messages;
}
