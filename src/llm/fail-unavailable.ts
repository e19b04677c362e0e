/**
 * The end of a call that got no answer: the failure written to the transcript, then thrown as
 * `LLM_UNAVAILABLE` with a hint at what to check (recoverable when the last failure was).
 */
import { AutofixError } from '../errors.js';
import { transcriptHead, type CallEnd, type ChatCall } from './chat-call.js';
import { hintFor, type AttemptFailure } from './classify-llm-error.js';

export async function failUnavailable(
  call: ChatCall,
  attempts: number,
  failure: AttemptFailure | undefined,
  end: CallEnd & { endpoint: string; redact: (text: string) => string },
): Promise<never> {
  const { model } = call.request;
  const last = failure ?? { label: 'no attempt made', status: undefined, retryable: false };
  const message = end.redact(
    `LLM endpoint ${end.endpoint} unavailable (model ${model}) after ${attempts} attempt${attempts === 1 ? '' : 's'}: last ${last.label}.${hintFor(last.status, model, end.endpoint)}`,
  );
  await end.onTranscript?.({
    ...transcriptHead(call),
    responseText: '',
    response: undefined,
    usage: undefined,
    attempts,
    durationMs: end.now() - call.started,
    error: message,
  });
  throw new AutofixError('LLM_UNAVAILABLE', message, {
    details: { endpoint: end.endpoint, model, attempts, status: last.status ?? null },
    recoverable: last.retryable,
  });
}
