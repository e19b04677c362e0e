/**
 * A CI follow-up round's words for the prompts: the repository's failing checks and their cropped
 * logs, given to the fixer as a build failure to repair on the PR's branch. The logs are
 * repository output (sanitized at admission); the prompt quotes them as data like any instructions.
 */
import type { RunTrigger } from '../../../runs/types.js';

type CiFailureTrigger = Extract<RunTrigger, { kind: 'ci-failure' }>;

export function renderCiInstructions(t: CiFailureTrigger): string {
  const lines = [
    `The repository's CI failed on this pull request's head commit ${t.headSha.slice(0, 12)} ` +
      `(follow-up round ${t.round} of ${t.attempts}). Fix the cause in the code with one ` +
      'change; do not skip, delete or weaken tests, and do not touch CI configuration.',
  ];
  for (const f of t.failures) {
    lines.push(
      '',
      `Failing check: ${f.name} (${f.conclusion})${f.step ? `, step: ${f.step}` : ''}`,
      f.source === 'log' ? 'Its log, cropped to the failing part:' : 'Its output:',
      '```',
      f.excerpt.replace(/```/g, "'''"),
      '```',
    );
  }
  return lines.join('\n');
}
