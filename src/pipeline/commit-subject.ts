/**
 * The commit subject's description (and so the PR title, which is the commit's first line): it
 * says what the change does, in the imperative, not what the bug was. Tried in this order, the
 * first that leaves at least 10 characters wins:
 *
 *   1. the plan's `commit_subject` (the planner writes it for this purpose);
 *   2. the plan's steps, first step first, first sentence of each (the planner writes steps as
 *      imperative sentences: "Return the defaults from parseConfig when the file is empty.");
 *   3. `resolve issue #N: "<issue title>"` when the quoted title fits, else `resolve issue #N`.
 *
 * The issue title is never used as a description by itself: it usually describes the bug.
 * Each candidate goes through `normaliseDescription` (prefixes, trailing period, tense, casing:
 * `src/git/commit-description.ts`), then `disarmClosingReferences` (model or issue text must not
 * carry "closes #5" into history), then `fitDescription` so that the whole subject
 * `type(scope): description` is at most 72 characters (`SUBJECT_MAX_LENGTH`), which is the rule
 * `validateCommitMessage` enforces.
 */
import type { FixPlan } from '../contracts.js';
import { fitDescription, normaliseDescription } from '../git/commit-description.js';
import {
  DESCRIPTION_MIN_LENGTH,
  SUBJECT_MAX_LENGTH,
  subjectPrefix,
} from '../git/commit-message.js';
import { disarmClosingReferences } from '../text/neutralize-inline.js';

export interface CommitDescriptionInput {
  plan: Pick<FixPlan, 'commit_type' | 'scope' | 'plan_steps'> & { commit_subject?: string };
  issue: { number: number; title: string };
}

/** The first sentence of a step ("Do X. Then Y." → "Do X."); a period inside `a.b` is kept. */
function firstSentence(text: string): string {
  return text.replace(/\s+/g, ' ').split(/(?<=[.!?])\s+(?=[A-Z`])/)[0] ?? '';
}

/** An issue title as a quotation: tags and a conventional prefix off, its words otherwise kept. */
function quotedTitle(title: string): string {
  const text = title
    .replace(/\s+/g, ' ')
    .replace(/^\s*\[[^\]]*\]\s*/, '')
    .replace(/^(?:fix|feat|docs|chore|refactor)(?:\([^)]*\))?!?:\s*/i, '')
    .replace(/[.!\s]+$/, '')
    .replace(/"/g, "'")
    .trim();
  return text ? `"${text}"` : '';
}

export function commitDescription(input: CommitDescriptionInput): string {
  const { plan, issue } = input;
  const budget = SUBJECT_MAX_LENGTH - subjectPrefix(plan.commit_type, plan.scope).length;
  const prepare = (text: string): string =>
    disarmClosingReferences(normaliseDescription(text), { issueNumber: issue.number });

  const candidates = [
    plan.commit_subject ?? '',
    ...plan.plan_steps.map((step) => firstSentence(step.description)),
  ];
  for (const candidate of candidates) {
    const text = fitDescription(prepare(candidate), budget);
    if (text.length >= DESCRIPTION_MIN_LENGTH) return text;
  }

  const resolve = `resolve issue #${issue.number}`;
  const title = disarmClosingReferences(quotedTitle(issue.title), { issueNumber: issue.number });
  const quoted = `${resolve}: ${title}`;
  return title && quoted.length <= budget ? quoted : resolve;
}
