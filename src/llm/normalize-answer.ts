/**
 * Provider quirks, removed once from every answer before any parser sees it (pure): reasoning
 * models' `<think>`/`<thinking>`/`<reasoning>` sections (also a reply whose opening tag was part
 * of the chat template, so only `</think>` arrives), an outer ```` ```markdown ```` fence around
 * the whole answer, and a refusal — OpenAI's `message.refusal`, or a short reply that only
 * declines — which is reported as such instead of as "no diff found".
 */

export interface NormalizedAnswer {
  /** What the parsers read. */
  text: string;
  /** The reasoning the provider mixed into the content, if any. */
  reasoning: string | null;
  /** Why the model declined, when it did. */
  refusal: string | null;
}

const TAGS = 'think|thinking|reasoning';
const BLOCK = new RegExp(`<(${TAGS})>[\\s\\S]*?</\\1>`, 'gi');
const OPEN_ONLY = new RegExp(`^\\s*<(?:${TAGS})>`, 'i');
const CLOSE_ONLY = new RegExp(`^([\\s\\S]*?)</(?:${TAGS})>`, 'i');
const MARKDOWN_WRAPPER = /^\s*(`{3,}|~{3,})(?:markdown|md)[^\S\n]*\n([\s\S]*)\n\1[^\S\n]*$/i;
/** A whole reply that only declines (no code, no diff, short). */
const DECLINE =
  /^\s*(?:I'm sorry|I am sorry|Sorry|I apologi[sz]e)?[,.]?\s*(?:but\s+)?I\s+(?:can(?:no|')t|cannot|won't|will not|am unable to|'m unable to|am not able to)\s+(?:help|assist|comply|provide|do that|fulfil|complete)/i;

export function normalizeAnswer(
  content: string,
  extras: { refusal?: string | null } = {},
): NormalizedAnswer {
  const reasoning: string[] = [];
  let text = content.replace(BLOCK, (block) => {
    reasoning.push(block);
    return '';
  });
  if (OPEN_ONLY.test(text)) {
    // Cut off inside its reasoning (length limit): nothing usable came after it.
    reasoning.push(text);
    text = '';
  } else {
    const close = CLOSE_ONLY.exec(text);
    if (close) {
      reasoning.push(close[1] ?? '');
      text = text.slice(close[0].length);
    }
  }
  text = text.trim() === '' ? '' : text.replace(/^\s*\n/, '');
  const wrapped = MARKDOWN_WRAPPER.exec(text);
  if (wrapped) text = wrapped[2] ?? '';
  const stated = extras.refusal?.trim();
  const declined =
    !stated && text.length < 600 && !/```|^(?:---|\+\+\+|@@)/m.test(text) && DECLINE.test(text)
      ? text.trim()
      : null;
  return {
    text,
    reasoning: reasoning.length > 0 ? reasoning.join('\n') : null,
    refusal: stated || declined,
  };
}
