/**
 * What the reporter wrote, without what the repository's issue template wrote for them. A
 * template's headings, checkbox labels and prefilled instructions (`### Bug summary`,
 * `- [X] I have searched the existing issues`, `**To Reproduce** Steps to reproduce the
 * behavior:`) stay in the issue as submitted; they are the same in every issue of the
 * repository, so they say nothing about this one, and their words (`version`, `environment`,
 * `install`, `documentation`) pull the files that share them up. Pure.
 */

import { withoutEnvironment } from './issue-environment.js';
import { fencedLines } from './issue-text.js';

/**
 * Issue-template files: `.github/ISSUE_TEMPLATE/*.{md,yml}`, `.github/ISSUE_TEMPLATE.md`,
 * `ISSUE_TEMPLATE.md`, `docs/issue_template.md` (GitHub reads any of these, any case).
 */
export const isIssueTemplate = (path: string): boolean =>
  /(^|\/)issue_template(\.(md|markdown|txt|ya?ml)|\/[^/]+\.(md|markdown|ya?ml))$/i.test(path);

/** A form's keys whose value GitHub shows in the issue (a label, a prefilled value). */
const FORM_KEY = /^-?\s*(?:label|value|title|name|about|description|placeholder)\s*:\s*/i;
const MARKDOWN_LEAD = /^(?:#{1,6}\s*|>\s*|[-*+]\s+(?:\[[ xX]\]\s*)?|\[[ xX]\]\s*|\d+[.)]\s+)/;

/**
 * A line as both sides write it, to be compared: without the form key, list, heading or
 * checkbox marks, emphasis, quotes and a trailing colon; spaces collapsed; lower case.
 */
export function templateLine(line: string): string {
  let s = line.trim().replace(FORM_KEY, '');
  for (let before = ''; before !== s;) {
    before = s;
    s = s.replace(MARKDOWN_LEAD, '').trim();
  }
  return s
    .replace(/\*\*|__/g, '')
    .replace(/^["'|>]+|["']+$/g, '')
    .replace(/:\s*$/, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

/** Lines shorter than this (`yes`, `none`, `macos`) may be the reporter's own answer. */
const MIN_LENGTH = 6;

/**
 * The issue without the lines that are its repository's template text: the title (first line)
 * and the lines inside code fences (the reporter's code and output) are always kept.
 */
export function withoutTemplateText(issueText: string, templates: readonly string[]): string {
  const known = new Set<string>();
  for (const template of templates)
    for (const line of template.split('\n')) {
      const key = templateLine(line);
      if (key.length >= MIN_LENGTH && /[a-z]/.test(key)) known.add(key);
    }
  if (known.size === 0) return issueText;
  const lines = issueText.split('\n');
  const fenced = fencedLines(lines);
  const kept = lines.filter((line, i) => {
    if (i === 0 || fenced[i]) return true;
    const key = templateLine(line);
    return key.length < MIN_LENGTH || !known.has(key);
  });
  return kept.length === lines.length ? issueText : kept.join('\n');
}

type TextFile = { path: string; content: string };

const templatesAmong = (files: readonly TextFile[]): string[] =>
  files.filter((f) => isIssueTemplate(f.path)).map((f) => f.content);

/**
 * The issue as the ranking reads it, for its evidence and for word overlap alike: what the
 * reporter wrote, without the template's text (`withoutTemplateText`) and without their
 * environment (`withoutEnvironment`: versions, an installation's paths, a pasted configuration),
 * with the issue templates among `files` (a repo map's, or those just read).
 */
export function readIssue(issueText: string, files: readonly TextFile[]): string {
  // The environment first: the template's headings delimit it.
  return withoutTemplateText(withoutEnvironment(issueText), templatesAmong(files));
}
