import { AutofixError } from '../errors.js';
import { extractJson } from '../text/extract-json.js';
import { jsonCut } from './json-cut.js';

/**
 * The JSON value in an LLM answer (`extractJson`: the whole text, a fenced block, or a balanced
 * object inside prose), or a refusal written for the LLM that must resend it; an answer whose
 * JSON stops before it is closed is refused as cut off, saying where (`details.cut`).
 */
export function requireJsonAnswer(text: string, shape: string): unknown {
  // Before any search: inside a cut-off answer, a `{}` in a string would pass for its JSON.
  const cut = jsonCut(text);
  if (cut)
    throw new AutofixError(
      'LLM_OUTPUT_INVALID',
      `Your answer looks cut off: ${cut.why}. It was probably cut off at the output limit, so nothing was written. Send it again complete, as only one JSON object: ${shape}`,
      { details: { cut } },
    );
  const found = extractJson(text);
  if (found.ok) return found.value;
  throw new AutofixError(
    'LLM_OUTPUT_INVALID',
    `Your answer is not valid JSON (${found.error}); nothing was written. Send only one JSON object: ${shape}`,
  );
}
