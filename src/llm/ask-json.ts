/**
 * Structured output: call, extract the JSON, validate it with zod; on failure re-ask once in
 * the same conversation with the errors, then give up with LLM_OUTPUT_INVALID.
 */
import type { z } from 'zod';
import { AutofixError } from '../errors.js';
import type { LlmClient } from './create-llm-client.js';
import { extractJson } from '../text/extract-json.js';
import type { ChatRequest, ChatResult } from './types.js';

export interface AskJsonResult<T> {
  data: T;
  /** The call whose reply was accepted. */
  result: ChatResult;
  /** Every call made (one, or two after a re-ask). */
  calls: ChatResult[];
  reasked: boolean;
}

/** `path: message` lines, at most `limit`, for prompts and error messages. */
export function formatZodIssues(error: z.ZodError, limit = 20): string[] {
  const lines = error.issues.map((issue) => {
    const path = issue.path.map(String).join('.');
    return `${path || '(root)'}: ${issue.message}`;
  });
  return lines.length > limit
    ? [...lines.slice(0, limit), `… and ${lines.length - limit} more`]
    : lines;
}

function check<T>(
  result: ChatResult,
  schema: z.ZodType<T>,
): { ok: true; data: T } | { ok: false; errors: string[] } {
  // A reply cut off at the output limit is not used, even where its JSON happens to parse.
  if (result.truncated !== null)
    return {
      ok: false,
      errors: [`the reply was cut off at the output limit (${result.truncated}); answer shorter`],
    };
  const extracted = extractJson(result.text);
  if (!extracted.ok) return { ok: false, errors: [`not JSON: ${extracted.error}`] };
  const parsed = schema.safeParse(extracted.value);
  return parsed.success
    ? { ok: true, data: parsed.data }
    : { ok: false, errors: formatZodIssues(parsed.error) };
}

export function reaskMessage(schemaName: string, errors: readonly string[]): string {
  return [
    `Your previous reply could not be used: it is not a valid ${schemaName}.`,
    'Problems found:',
    ...errors.map((e) => `- ${e}`),
    '',
    `Reply again with only the corrected ${schemaName} JSON object, following the output contract in the system message: no prose, no markdown fences.`,
  ].join('\n');
}

/** A model that declined gets no re-ask: the run says so (a refusal repeats). */
export function declined(result: ChatResult, request: Pick<ChatRequest, 'stage'>): ChatResult {
  if (result.refusal === null) return result;
  const stage = request.stage ? ` ${request.stage}` : '';
  throw new AutofixError(
    'LLM_OUTPUT_INVALID',
    `The model declined to give its${stage} answer: "${result.refusal.slice(0, 500)}"`,
    { details: { refusal: result.refusal }, recoverable: false },
  );
}

export async function askJson<T>(
  client: LlmClient,
  request: ChatRequest,
  schema: z.ZodType<T>,
  schemaName = 'JSON',
): Promise<AskJsonResult<T>> {
  const first = declined(await client.chat(request), request);
  const firstCheck = check(first, schema);
  if (firstCheck.ok)
    return { data: firstCheck.data, result: first, calls: [first], reasked: false };

  const second = await client.chat({
    ...request,
    messages: [
      ...request.messages,
      { role: 'assistant', content: first.text },
      { role: 'user', content: reaskMessage(schemaName, firstCheck.errors) },
    ],
  });
  const secondCheck = check(declined(second, request), schema);
  if (secondCheck.ok)
    return { data: secondCheck.data, result: second, calls: [first, second], reasked: true };

  const stage = request.stage ? `${request.stage} ` : '';
  throw new AutofixError(
    'LLM_OUTPUT_INVALID',
    `The LLM's ${stage}reply is not a valid ${schemaName}, even after one re-ask: ${secondCheck.errors.slice(0, 3).join('; ')}`,
    {
      details: { schema: schemaName, errors: secondCheck.errors, firstErrors: firstCheck.errors },
      recoverable: false,
    },
  );
}
