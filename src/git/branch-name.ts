/**
 * Branch names (docs/CONTRACTS.md): `<prefix><type>/<issue>-<slug>`, e.g.
 * `autofix/fix/42-crash-when-config-is-empty`. The slug is ASCII, at most 50 characters, cut at
 * a word boundary when it can be.
 */
import type { CommitType } from '../contracts.js';
import { AutofixError } from '../errors.js';

export const COMMIT_TYPES: readonly CommitType[] = ['fix', 'feat', 'docs', 'chore', 'refactor'];
export const DEFAULT_BRANCH_PREFIX = 'autofix/';
export const MAX_SLUG_LENGTH = 50;

export function slugify(text: string, max = MAX_SLUG_LENGTH): string {
  const ascii = text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
  let slug = ascii
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  if (slug.length > max) {
    slug = slug.slice(0, max);
    const lastDash = slug.lastIndexOf('-');
    if (lastDash >= max / 2) slug = slug.slice(0, lastDash);
    slug = slug.replace(/-+$/, '');
  }
  return slug || 'issue';
}

export interface BranchNameInput {
  type: CommitType;
  issue: number;
  /** Usually the issue title. */
  title: string;
  prefix?: string;
}

export function branchName({
  type,
  issue,
  title,
  prefix = DEFAULT_BRANCH_PREFIX,
}: BranchNameInput): string {
  if (!COMMIT_TYPES.includes(type)) {
    throw new AutofixError('INTERNAL', `unknown commit type ${JSON.stringify(type)}`, {
      recoverable: false,
    });
  }
  if (!Number.isSafeInteger(issue) || issue <= 0) {
    throw new AutofixError('INTERNAL', `bad issue number ${issue}`, { recoverable: false });
  }
  assertBranchPrefix(prefix);
  return `${prefix}${type}/${issue}-${slugify(title)}`;
}

/**
 * The bot branches of one issue among `names` (any commit type): `<prefix><type>/<issue>-<slug>`.
 * A rerun or second trigger looks for them before it starts, whatever type its plan will choose.
 */
export function findIssueBranches(
  names: readonly string[],
  prefix: string,
  issue: number,
): string[] {
  return names.filter((name) => {
    if (!name.startsWith(prefix)) return false;
    const rest = name.slice(prefix.length);
    const slash = rest.indexOf('/');
    return (
      slash > 0 &&
      COMMIT_TYPES.includes(rest.slice(0, slash) as CommitType) &&
      rest.slice(slash + 1).startsWith(`${issue}-`)
    );
  });
}

/** Same rule as the repo config's `branch_prefix`: path segments ending in `/`. */
export function assertBranchPrefix(prefix: string): void {
  if (
    !/^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*\/$/.test(prefix) ||
    /(^|\/)\.|\.\.|\.lock\//.test(prefix)
  ) {
    throw new AutofixError(
      'CONFIG_INVALID',
      `branch prefix ${JSON.stringify(prefix)} is not usable`,
      {
        recoverable: false,
      },
    );
  }
}

/** Pushes and deletions go only below the bot's prefix (docs/SECURITY.md, rule 5). */
export function assertBotBranch(name: string, prefix: string): void {
  const rest = name.slice(prefix.length);
  if (
    !name.startsWith(prefix) ||
    rest === '' ||
    !/^[A-Za-z0-9._/-]+$/.test(rest) ||
    /(^|\/)\.|\.\.|\/\/|\/$|\.lock(\/|$)/.test(rest)
  ) {
    throw new AutofixError(
      'PERMISSION_DENIED',
      `refusing to touch branch ${JSON.stringify(name)}: the bot only writes below ${prefix}`,
      { recoverable: false },
    );
  }
}
