/**
 * The verdict's annotations (pure): where the failing commands' output (and a reproduction that
 * still fails) points in the repository, and each changed file outside the plan.
 */
import {
  boundAnnotations,
  MAX_ANNOTATIONS,
  parseAnnotations,
  type Annotation,
} from './annotations.js';
import { plainPath, type Verdict, type VerdictInput } from './decide-verdict.js';
import { short } from './verdict-sections.js';

export function verdictAnnotations(input: VerdictInput, verdict: Verdict): Annotation[] {
  const found: Annotation[] = [];
  const options = input.worktree === undefined ? {} : { worktree: input.worktree };
  if (verdict.reproduction === 'still-fails' && input.reproduction?.head.excerpt) {
    found.push(...parseAnnotations(input.reproduction.head.excerpt, options));
  }
  for (const r of verdict.failed) {
    if (found.length >= MAX_ANNOTATIONS) break;
    const annotations = parseAnnotations(`${r.stdout}\n${r.stderr}`, options);
    found.push(...annotations.map((a) => ({ ...a, title: a.title ?? short(r.command, 200) })));
  }
  const deleted = new Set(
    input.changes.filter((c) => c.operation === 'deleted').map((c) => plainPath(c.path)),
  );
  for (const path of verdict.outsidePlan) {
    if (deleted.has(path)) continue;
    found.push({
      path,
      start_line: 1,
      end_line: 1,
      annotation_level: 'failure',
      title: 'Changed outside the plan',
      message: "This file is not among the plan's files and no amendment explains why it changed.",
    });
  }
  return boundAnnotations(found);
}
