import type { ChangeSet } from '../contracts.js';
import type { EditFormat } from '../config/repo-config.js';
import { applyChangeSet } from './apply-change-set.js';
import type { WriteIo } from './apply-change-set.js';
import { findPathViolations } from './find-path-violations.js';
import type { IsIgnored, PathViolation } from './find-path-violations.js';
import { mergeParsedEdits } from './merge-parsed-edits.js';
import { parseEdits } from './parse-edits.js';
import { DEFAULT_PATH_POLICY } from './path-policy.js';
import type { PathPolicy } from './path-policy.js';
import { pathPolicyError } from './path-policy-error.js';
import { readRepoText } from './read-repo-text.js';
import { renderDiff } from './render-diff.js';
import type { FileReport, ParsedEdits } from './types.js';
import { outsideScope } from './outside-scope.js';
import { verifyChangeSet } from './verify-change-set.js';

export interface ApplyEditsOptions {
  /** Repository work tree (its top level). */
  repoDir: string;
  format: EditFormat;
  /** The LLM's answer, as received; several answers (one per planned file) apply as one change. */
  text: string | readonly string[];
  /**
   * The plan's contract (docs/CONTRACTS.md): when given, a change to any other path is refused as
   * WRITE_SCOPE_VIOLATION before anything is written.
   */
  scope?: readonly string[];
  /** Names the scope in refusals (default "the plan"). */
  scopeName?: string;
  /** Defaults to DEFAULT_PATH_POLICY; build others with `pathPolicy()`. */
  policy?: PathPolicy;
  /** Port to `git check-ignore` (src/git/check-ignore.ts). */
  isIgnored: IsIgnored;
  /** Port to `git apply --check` of the clean diff (src/git/apply-check.ts); throws to refuse. */
  checkDiff?: (repoDir: string, diff: string) => Promise<void>;
  /** Verify everything, write nothing. */
  dryRun?: boolean;
  /** Filesystem calls used for writing (tests inject failures). */
  io?: Partial<WriteIo>;
}

export interface ApplyEditsResult {
  /** Files were written (false for a dry run or when nothing changes). */
  applied: boolean;
  changeSet: ChangeSet;
  files: FileReport[];
  /** Clean unified diff of everything that changes. */
  diff: string;
  /** The LLM's "no change needed" message (fenced-files `$$$`). */
  noChange?: string;
}

/**
 * The pipeline's one entry into edits/: parse → path policy → verify → clean diff →
 * `git apply --check` → atomic write. Throws AutofixError; see index.ts for the codes.
 */
export async function applyEdits(options: ApplyEditsOptions): Promise<ApplyEditsResult> {
  const { repoDir } = options;
  const policy = options.policy ?? DEFAULT_PATH_POLICY;
  const verdicts = new Map<string, PathViolation | null>();
  const check = async (paths: readonly string[]): Promise<PathViolation[]> => {
    const unknown = paths.filter((p) => !verdicts.has(p));
    if (unknown.length > 0) {
      const found = await findPathViolations(unknown, policy, {
        repoDir,
        isIgnored: options.isIgnored,
      });
      for (const p of unknown) verdicts.set(p, found.find((v) => v.path === p) ?? null);
    }
    return paths.flatMap((p) => verdicts.get(p) ?? []);
  };
  // Parsers see only files the policy allows: a protected file's lines must never be quoted back.
  const refused: PathViolation[] = [];
  const readFile = async (path: string): Promise<string | undefined> => {
    const [violation] = await check([path]);
    if (!violation) return readRepoText(repoDir, path);
    if (!refused.includes(violation)) refused.push(violation);
    return undefined;
  };

  let parsed;
  try {
    const texts = typeof options.text === 'string' ? [options.text] : options.text;
    const parts: ParsedEdits[] = [];
    for (const text of texts) parts.push(await parseEdits(options.format, text, readFile));
    parsed = mergeParsedEdits(parts);
  } catch (err) {
    if (refused.length > 0) throw pathPolicyError(refused);
    throw err;
  }
  const { changeSet } = parsed;
  const violations = await check(changeSet.files.map((f) => f.path));
  if (violations.length === 0 && options.scope) {
    const outside = outsideScope(
      changeSet.files.map((f) => f.path),
      options.scope,
      options.scopeName,
    );
    if (outside) throw outside;
  }
  if (violations.length > 0) throw pathPolicyError(violations);

  const verified = await verifyChangeSet(repoDir, changeSet);
  const entries = await Promise.all(
    verified.map(async (v) => ({
      path: v.change.path,
      ...(v.before ? { before: (await readRepoText(repoDir, v.change.path)) ?? '' } : {}),
      ...(v.change.op === 'write' ? { after: v.change.content ?? '' } : {}),
    })),
  );
  const unchanged = new Set(entries.filter((e) => e.before === e.after).map((e) => e.path));
  const existed = new Set(verified.filter((v) => v.before).map((v) => v.change.path));
  const files = parsed.files.map((f) => ({
    ...f,
    created: f.op === 'write' && !existed.has(f.path),
    ...(unchanged.has(f.path) ? { unchanged: true } : {}),
  }));
  const changing: ChangeSet = {
    ...changeSet,
    files: changeSet.files.filter((f) => !unchanged.has(f.path)),
  };
  const diff = renderDiff(entries);
  if (diff !== '' && options.checkDiff) await options.checkDiff(repoDir, diff);
  const write = !options.dryRun && changing.files.length > 0;
  if (write) await applyChangeSet(repoDir, changing, options.io ? { io: options.io } : {});
  return {
    applied: write,
    changeSet: changing,
    files,
    diff,
    ...(parsed.noChange === undefined ? {} : { noChange: parsed.noChange }),
  };
}
