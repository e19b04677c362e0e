import { AutofixError } from '../errors.js';
import { extractJson as findJson } from '../text/extract-json.js';

/**
 * The JSON value in an LLM answer (the whole text, a fenced block, or a balanced object inside
 * prose), or a refusal written for the LLM that must resend it.
 */
export function extractJson(text: string, shape: string): unknown {
  const found = findJson(text);
  if (found.ok) return found.value;
  throw new AutofixError(
    'LLM_OUTPUT_INVALID',
    `Your answer is not valid JSON (${found.error}); nothing was written. Send only one JSON object: ${shape}`,
  );
}
