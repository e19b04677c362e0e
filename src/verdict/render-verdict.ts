/**
 * The verdict as text (pure): a title, a summary (headline, reproduction, validation, scope, the
 * run's facts) and the failing commands' output tails, each within the character limit given
 * (GitHub's, for a check run), and the annotations.
 */
import type { Annotation } from './annotations.js';
import { cell, codeSpan } from '../text/markdown.js';
import { neutralizeMarkdown, type NeutralizeOptions } from '../text/neutralize-markdown.js';
import {
  decideVerdict,
  type Verdict,
  type VerdictConclusion,
  type VerdictInput,
} from './decide-verdict.js';
import { verdictAnnotations } from './verdict-annotations.js';
import {
  excerpt,
  exitText,
  plural,
  reproductionSection,
  runSection,
  scopeSection,
  short,
  validationSection,
} from './verdict-sections.js';

const TEXT_EXCERPT_LINES = 80;
const TEXT_EXCERPT_CHARS = 8_000;

export interface RenderedVerdict {
  conclusion: VerdictConclusion;
  title: string;
  summary: string;
  /** The failing commands' output tails; absent when none failed. */
  text?: string;
  annotations: Annotation[];
}

function title(verdict: Verdict, input: VerdictInput): string {
  if (verdict.conclusion === 'failure') {
    const reasons: string[] = [];
    if (verdict.failed.length > 0) {
      reasons.push(`${plural(verdict.failed.length, 'validation command')} failed`);
    }
    if (verdict.reproduction === 'still-fails') reasons.push('the reproduction still fails');
    if (verdict.outsidePlan.length > 0) {
      reasons.push(`${plural(verdict.outsidePlan.length, 'file')} changed outside the plan`);
    }
    return reasons.join('; ').replace(/^./, (c) => c.toUpperCase());
  }
  if (verdict.conclusion === 'neutral') {
    return input.validation.length === 0
      ? 'Nothing verified: no validation commands'
      : 'Nothing verified: every validation command already failed on the base commit';
  }
  const parts: string[] = [];
  if (verdict.passed.length > 0) {
    parts.push(`${plural(verdict.passed.length, 'validation command')} passed`);
  }
  if (verdict.reproduction === 'fail-to-pass')
    parts.push('the reproduction fails before and passes after');
  return `Verified: ${parts.join('; ')}`;
}

const HEADLINE: Record<VerdictConclusion, string> = {
  success: '## ✅ Autofix verified this change',
  failure: '## ❌ Autofix could not verify this change',
  neutral: '## ⚪ Nothing could verify this change',
};

/**
 * Sections joined within `max` characters: the last one (the run's facts) always stays; a
 * section that no longer fits is left out whole (cutting one could leave a fence or table open),
 * with a line saying so.
 */
function fitSections(sections: readonly string[], last: string, max: number): string {
  const cutNote = `_… cut: GitHub limits a check run to ${max.toLocaleString('en-US')} characters._`;
  const budget = max - last.length - cutNote.length - 8;
  const kept: string[] = [];
  let used = 0;
  let cut = false;
  for (const section of sections) {
    if (used + section.length + 2 > budget) {
      cut = true;
      continue;
    }
    kept.push(section);
    used += section.length + 2;
  }
  const out = [...kept, ...(cut ? [cutNote] : []), last].join('\n\n');
  return out.length <= max ? out : out.slice(0, max);
}

/** The output tails of the failing commands (new failures first), for `output.text`. */
function failureText(verdict: Verdict, maxChars: number): string | undefined {
  const sections = [...verdict.failed, ...verdict.preexisting].map((r) => {
    const state = verdict.failed.includes(r) ? 'failed' : 'failed on the base commit too';
    const how = r.timed_out ? 'timed out' : `exit code ${exitText(r.exit_code)}`;
    const output = [r.stdout, r.stderr].filter((s) => s.trim() !== '').join('\n');
    return `#### ${codeSpan(short(r.command))} ${state} (${how})\n\n${excerpt(output, TEXT_EXCERPT_LINES, TEXT_EXCERPT_CHARS)}`;
  });
  if (sections.length === 0) return undefined;
  return fitSections(sections, '', maxChars).trimEnd();
}

/** The neutraliser of what the repository or model wrote: only the run's own links stay live. */
function neutralizer(input: VerdictInput): (s: string) => string {
  const options: NeutralizeOptions = {
    inline: true,
    ...(input.repo ? { owner: input.repo.owner, repo: input.repo.repo } : {}),
    ...(input.githubHost ? { githubHost: input.githubHost } : {}),
    ...(input.issueNumber === undefined ? {} : { issueNumber: input.issueNumber }),
  };
  return (s: string): string => cell(neutralizeMarkdown(s, options));
}

/** The verdict's text: `maxChars` bounds the summary and the text each. */
export function renderVerdict(input: VerdictInput, maxChars: number): RenderedVerdict {
  const verdict = decideVerdict(input);
  const text = neutralizer(input);
  const outputTitle = title(verdict, input);
  const sections = [`${HEADLINE[verdict.conclusion]}\n\n${outputTitle}.`];
  if (input.reproduction) sections.push(reproductionSection(input.reproduction, verdict, text));
  sections.push(validationSection(input, verdict), scopeSection(input, verdict, text));
  const details = failureText(verdict, maxChars);
  return {
    conclusion: verdict.conclusion,
    title: outputTitle,
    summary: fitSections(sections, runSection(input), maxChars),
    ...(details ? { text: details } : {}),
    annotations: verdictAnnotations(input, verdict),
  };
}
