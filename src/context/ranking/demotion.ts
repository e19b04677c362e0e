/**
 * Not what a behaviour bug is fixed in: tests, docs, changelogs, examples, templates, CI
 * config and build output are demoted unless the issue is about them or names them. A
 * configuration file the issue names (`docker-compose.yml`, `ec2.ini`, a requirements file) is
 * the reporter's setup, shown for context: demoted too, unless the issue is about configuration.
 */
import { ABOUT_FACTOR, DEMOTION, kindsTheIssueIsAbout, type PathKind } from '../classify-path.js';
import { withoutLinks } from '../extract-issue-refs.js';
import type { EvidenceKind } from './types.js';

/** A file's score as the fold keeps it. */
export interface Demotable {
  kind: PathKind;
  score: number;
  points: Partial<Record<EvidenceKind, number>>;
  /** Points from structural evidence. */
  evidence: number;
  /** Named explicitly (path, trace, file name). */
  named: boolean;
  reasons: string[];
}

const KIND_LABEL: Record<PathKind, string> = {
  source: 'source',
  test: 'test',
  docs: 'docs',
  changelog: 'changelog',
  example: 'example',
  meta: 'issue template/CI config',
  build: 'build output/generated',
  vendored: 'vendored',
  config: 'config/tooling',
  declarations: 'type declarations',
};

/**
 * Demotes the scores of the files the issue is not about (saying so in their reasons), and
 * answers the factor of any file: what a later share of points (the import hop) is multiplied by.
 */
export function demote(
  files: readonly Demotable[],
  issueText: string,
): (file: Demotable) => number {
  const about = kindsTheIssueIsAbout(withoutLinks(issueText));
  const exempt = (e: Demotable): boolean =>
    e.kind === 'source' || (e.named && (e.kind !== 'config' || about.has('config')));
  const factorOf = (e: Demotable): number =>
    exempt(e) ? 1 : about.has(e.kind) ? ABOUT_FACTOR[e.kind] : DEMOTION[e.kind];
  for (const e of files) {
    if (exempt(e) || e.score === 0) continue;
    const factor = factorOf(e);
    e.score *= factor;
    e.evidence *= factor;
    for (const kind of Object.keys(e.points) as EvidenceKind[])
      e.points[kind] = (e.points[kind] ?? 0) * factor;
    e.reasons.push(
      `${KIND_LABEL[e.kind]}: demoted ×${factor}${about.has(e.kind) ? ' (the issue is about it)' : ''}`,
    );
  }
  return factorOf;
}
