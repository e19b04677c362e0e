/**
 * Why a chat completion is known to have been cut off at the output limit, or null (pure). Servers
 * say it in different ways; each is read from the response as sent:
 *
 * - `finish_reason: "length"` (OpenAI, vLLM, llama.cpp, Ollama ≥ 0.3), `"max_tokens"` /
 *   `"MAX_TOKENS"` (Gemini's and Anthropic's names, passed through by some endpoints);
 * - `finish_details: { type: "max_tokens" }` instead of a finish reason (OpenAI's vision preview);
 * - llama.cpp's own fields next to an OpenAI answer (`__verbose`, or the native shape):
 *   `stop_type: "limit"`, `stopped_limit: true`, `truncated: true` (the context filled up);
 * - Ollama's `done_reason: "length"` where a gateway passes its native fields on;
 * - no finish reason at all, or `"stop"` from servers that never say `"length"` (older Ollama,
 *   some llama.cpp forks), with `usage.completion_tokens` at the `max_tokens` the request set: an
 *   answer that ended by itself would have stopped before the limit.
 */
type Json = Record<string, unknown>;

const LIMIT_REASONS = new Set(['length', 'max_tokens', 'max_output_tokens', 'model_length']);

const asObject = (value: unknown): Json | undefined =>
  typeof value === 'object' && value !== null ? (value as Json) : undefined;

/** The llama.cpp / Ollama fields that say a limit stopped the answer, on one object. */
function nativeLimit(place: Json | undefined): string | null {
  if (!place) return null;
  if (place.stop_type === 'limit') return 'stop_type "limit"';
  if (place.stopped_limit === true) return 'stopped_limit: true';
  if (place.truncated === true) return 'truncated: true';
  if (typeof place.done_reason === 'string' && LIMIT_REASONS.has(place.done_reason))
    return `done_reason "${place.done_reason}"`;
  return null;
}

export function truncationOf(raw: unknown, maxTokens?: number): string | null {
  const body = asObject(raw);
  const choice = asObject((body?.choices as unknown[] | undefined)?.[0]);
  const reason = choice?.finish_reason;
  if (typeof reason === 'string' && LIMIT_REASONS.has(reason.toLowerCase()))
    return `finish_reason "${reason}"`;
  const details = asObject(choice?.finish_details)?.type;
  if (typeof details === 'string' && LIMIT_REASONS.has(details.toLowerCase()))
    return `finish_details.type "${details}"`;
  const native = nativeLimit(choice) ?? nativeLimit(body) ?? nativeLimit(asObject(body?.__verbose));
  if (native) return native;
  const used = asObject(body?.usage)?.completion_tokens;
  const ended = reason === undefined || reason === null || reason === 'stop';
  if (ended && maxTokens !== undefined && typeof used === 'number' && used >= maxTokens)
    return `usage.completion_tokens ${used} reached max_tokens ${maxTokens}`;
  return null;
}
