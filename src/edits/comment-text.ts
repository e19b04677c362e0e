/**
 * The text of a comment-only line, in any common comment syntax (`#`, `//`, `--`, `;`, `%`,
 * `/* … *\/`, a ` * ` continuation, `<!-- … -->`, JSX's `{/* … *\/}`), or undefined when the
 * line holds code. C preprocessor lines (`#include`, `#if`: no space after `#`, unlike a
 * Python comment that starts with "if") and Rust attributes start with `#` but are code. Used to
 * tell a placeholder comment from code, and code from comments, in any language a repository uses.
 */
const DIRECTIVE =
  /^#(?:include|define|undef|if|ifdef|ifndef|elif|else|endif|pragma|error|warning|line|import|region|endregion)\b|^#[![]/;

const FORMS: readonly RegExp[] = [
  /^\{\/\*(.*?)\*\/\}$/,
  /^\/\*+(.*?)\*+\/$/,
  /^<!--(.*?)-->$/,
  /^\/\*+(.*)$/,
  /^\/\/+!?(.*)$/,
  /^#+(.*)$/,
  /^--(?:\s(.*))?$/,
  /^;+(?:\s(.*))?$/,
  /^%+(?:\s(.*))?$/,
  /^\*(?!\*?\/)(.*?)(?:\*\/)?$/,
];

export function commentText(line: string): string | undefined {
  const trimmed = line.trim();
  if (trimmed === '' || DIRECTIVE.test(trimmed)) return undefined;
  for (const form of FORMS) {
    const m = form.exec(trimmed);
    if (m) return (m[1] ?? '').trim();
  }
  return undefined;
}
