import { AutofixError } from '../errors.js';

/**
 * The JSON value in an LLM answer: the whole text, or the inside of a markdown fence, or the
 * span from the first `{` to the last `}` when prose surrounds it.
 */
export function extractJson(text: string, shape: string): unknown {
  const trimmed = text.trim();
  const fenced = /^(?:```|~~~)[\w-]*\s*\n([\s\S]*?)\n\s*(?:```|~~~)\s*$/.exec(trimmed)?.[1];
  const first = trimmed.indexOf('{');
  const last = trimmed.lastIndexOf('}');
  const attempts = [
    trimmed,
    fenced,
    first >= 0 && last > first ? trimmed.slice(first, last + 1) : undefined,
  ];
  let error = '';
  for (const attempt of attempts) {
    if (attempt === undefined) continue;
    try {
      return JSON.parse(attempt) as unknown;
    } catch (err) {
      error ||= (err as Error).message;
    }
  }
  throw new AutofixError(
    'LLM_OUTPUT_INVALID',
    `Your answer is not valid JSON (${error || 'no JSON object found'}); nothing was written. Send only one JSON object: ${shape}`,
  );
}
