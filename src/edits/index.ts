/**
 * edits/: turns what an LLM wrote into file changes that are exactly what it meant, or a precise
 * refusal — never a wrong file and never a half-applied change (docs/EDIT-FORMATS.md,
 * docs/SECURITY.md).
 *
 * The pipeline calls one function:
 *
 *   applyEdits({ repoDir, format, text, policy?, isIgnored, checkDiff?, dryRun? })
 *     → Promise<{ applied, changeSet, files, diff, noChange? }>
 *
 *   1. parse `text` in `format` (udiff | fenced-files | json-writes | edit-ops) into a ChangeSet;
 *      udiff and edit-ops read current contents through a port that hides files the policy forbids
 *   2. path policy over every path (`pathPolicy({ protectedPaths, allowedPaths, codeCommitMode })`,
 *      `isIgnored` = git check-ignore port from src/git/check-ignore.ts)
 *   3. verify against the disk (file types, `baseSha256` → STALE_CONTEXT)
 *   4. render a clean unified diff (jsdiff) and hand it to `checkDiff` (git apply --check)
 *   5. unless `dryRun`, write all or nothing (temp file + fsync + rename, deletions last, restore
 *      on failure)
 *
 * `files[].hunks` says where each udiff hunk landed and how it matched.
 * Refusals are AutofixError, every message written for the LLM that must fix it next round:
 *   LLM_OUTPUT_INVALID  the answer does not follow the format (syntax, schema, block rules)
 *   INVALID_DIFF        a hunk or edit target cannot be placed (names the file, quotes the lines)
 *   PROTECTED_PATH / WRITE_SCOPE_VIOLATION   the path policy, naming every offending path
 *   STALE_CONTEXT       a base hash no longer matches the file on disk
 *   GIT_CONFLICT        from `checkDiff`
 *   INTERNAL            writing failed midway (everything was restored)
 */
export { applyEdits } from './apply-edits.js';
export type { ApplyEditsOptions, ApplyEditsResult } from './apply-edits.js';
export { applyChangeSet } from './apply-change-set.js';
export { applyUnifiedDiff } from './apply-unified-diff.js';
export type { HunkReport } from './apply-unified-diff.js';
export { findPathViolations } from './find-path-violations.js';
export type { IsIgnored, PathViolation } from './find-path-violations.js';
export { parseEdits } from './parse-edits.js';
export {
  CODE_COMMIT_PROTECTED_PATHS,
  DEFAULT_PATH_POLICY,
  DEFAULT_PROTECTED_PATHS,
  pathPolicy,
} from './path-policy.js';
export type { PathPolicy, PathPolicyOptions } from './path-policy.js';
export { renderDiff } from './render-diff.js';
export type { FileReport, ParsedEdits, ReadFile } from './types.js';
export { locateCut } from './locate-cut.js';
export type { CutPoint } from './locate-cut.js';
export type { AnswerCut } from './types.js';
