/**
 * Finds the JSON value in an LLM reply: the whole text, a fenced block, or the first balanced
 * object/array inside prose. Reasoning models' `<think>` sections are skipped. Pure.
 */

export type ExtractedJson = { ok: true; value: unknown } | { ok: false; error: string };

const THINK_BLOCK = /<think>[\s\S]*?<\/think>/gi;
const FENCE = /```[A-Za-z0-9_-]*[^\S\n]*\n([\s\S]*?)\n?[^\S\n]*```/g;

function tryParse(text: string): ExtractedJson {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (err) {
    return { ok: false, error: (err as Error).message };
  }
}

/** End index (exclusive) of the object/array opening at `start`, honouring strings; -1 if none. */
function balancedEnd(text: string, start: number): number {
  const stack: string[] = [];
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') stack.push('}');
    else if (c === '[') stack.push(']');
    else if (c === '}' || c === ']') {
      if (stack.pop() !== c) return -1;
      if (stack.length === 0) return i + 1;
    }
  }
  return -1;
}

export function extractJson(reply: string): ExtractedJson {
  const text = reply
    .replace(/^\uFEFF/, '')
    .replace(THINK_BLOCK, '')
    .trim();
  if (text === '') return { ok: false, error: 'the reply is empty' };
  const whole = tryParse(text);
  if (whole.ok) return whole;

  let firstError: string | undefined;
  for (const match of text.matchAll(FENCE)) {
    const body = (match[1] ?? '').trim();
    if (!body.startsWith('{') && !body.startsWith('[')) continue;
    const parsed = tryParse(body);
    if (parsed.ok) return parsed;
    firstError ??= `the fenced JSON block does not parse: ${parsed.error}`;
  }

  // Objects first: a contract is an object, and prose often holds stray `[1]` citations.
  for (const opener of ['{', '[']) {
    for (let i = text.indexOf(opener); i !== -1; i = text.indexOf(opener, i + 1)) {
      const end = balancedEnd(text, i);
      if (end === -1) {
        firstError ??= `the JSON starting at character ${i} is not closed (cut off?)`;
        continue;
      }
      const parsed = tryParse(text.slice(i, end));
      if (parsed.ok) return parsed;
      firstError ??= `the JSON starting at character ${i} does not parse: ${parsed.error}`;
    }
  }
  return { ok: false, error: firstError ?? 'no JSON object found in the reply' };
}
