/**
 * Issue and comment text is untrusted (docs/SECURITY.md, rule 3): anyone can write it, and it goes
 * into an LLM prompt. We remove what a human reviewer would not see but a model would read — HTML
 * comments, hidden elements, zero-width and bidi control characters. Prompts then quote it as data
 * (llm/quote-untrusted.ts).
 */

/** Zero-width, bidi overrides/isolates, BOM, soft hyphen, word joiner, tag characters. */
const INVISIBLE =
  /[\u00AD\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFEFF]|[\u{E0000}-\u{E007F}]/gu;
const HTML_COMMENT = /<!--[\s\S]*?(?:-->|$)/g;
/** Elements a renderer hides: `hidden`, `display:none`, `visibility:hidden`, zero-size fonts. */
const HIDDEN_ELEMENT =
  /<([a-z][a-z0-9]*)\b[^>]*(?:\bhidden\b|display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0)[^>]*>[\s\S]*?<\/\1\s*>/gi;
/** Markdown link reference definitions never render (`[x]: <url> "title"`), a known hiding place. */
const LINK_REFERENCE =
  /^ {0,3}\[[^\]]+\]:\s*\S+(?:[ \t]+(?:"[^"]*"|'[^']*'|\([^)]*\)))?[ \t]*(?:\n|$)/gm;
// eslint-disable-next-line no-control-regex -- removing control characters is the point
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;

export function sanitizeUntrustedText(text: string): string {
  let out = text.normalize('NFKC');
  out = out.replace(HTML_COMMENT, '');
  // Nested hidden elements: repeat until nothing changes.
  for (let previous = ''; previous !== out;) {
    previous = out;
    out = out.replace(HIDDEN_ELEMENT, '');
  }
  out = out.replace(LINK_REFERENCE, '').replace(INVISIBLE, '').replace(CONTROL, '');
  out = out.replace(/\r\n?/g, '\n').replace(/\n{3,}/g, '\n\n');
  return out.trim();
}
