import { readFile, stat } from 'node:fs/promises';
import { applyEdits, DEFAULT_PATH_POLICY } from '../../edits/index.js';
import type { ApplyEditsResult } from '../../edits/index.js';
import { toErrorShape } from '../../errors.js';
import { gitApplyCheck } from '../../git/apply-check.js';
import { checkIgnore } from '../../git/check-ignore.js';
import type { EditFormat } from '../../config/repo-config.js';
import { EXIT } from '../exit-codes.js';

export interface ApplyPatchFlags {
  repo: string;
  patch: string;
  format: EditFormat;
  check?: boolean;
  json?: boolean;
}

function summary(result: ApplyEditsResult, check: boolean): string {
  const lines = result.files.map((f) => {
    const what =
      f.op === 'delete' ? 'delete' : f.created ? 'create' : f.unchanged ? 'unchanged' : 'modify';
    const hunks = (f.hunks ?? []).map(
      (h) =>
        `\n    hunk ${h.hunk} → line ${h.line} (${h.match}, ${h.placedBy}${h.offset ? `, offset ${h.offset > 0 ? '+' : ''}${h.offset}` : ''}${h.reindented ? `, ${h.reindented}` : ''})`,
    );
    return `  ${what} ${f.path}${hunks.join('')}`;
  });
  const head =
    result.noChange !== undefined
      ? `no change needed: ${result.noChange}`
      : `${check ? 'would apply' : result.applied ? 'applied' : 'nothing to write'}: ${result.files.length} file(s)`;
  return [head, ...lines].join('\n');
}

/** Exits OK when applied (or it would apply), FAILED when refused (nothing written), USAGE. */
export async function applyPatch(flags: ApplyPatchFlags): Promise<void> {
  const usage = (message: string): void => {
    console.error(`autofix apply-patch: ${message}`);
    process.exitCode = EXIT.USAGE;
  };
  const repoStat = await stat(flags.repo).catch(() => undefined);
  if (!repoStat?.isDirectory()) return usage(`--repo ${flags.repo} is not a directory`);
  const text = await readFile(flags.patch, 'utf8').catch(() => undefined);
  if (text === undefined) return usage(`cannot read --patch ${flags.patch}`);
  try {
    const result = await applyEdits({
      repoDir: flags.repo,
      format: flags.format,
      text,
      policy: DEFAULT_PATH_POLICY,
      isIgnored: (paths) => checkIgnore(flags.repo, paths),
      checkDiff: gitApplyCheck,
      dryRun: flags.check ?? false,
    });
    if (flags.json) console.log(JSON.stringify({ ok: true, ...result }, null, 2));
    else console.log(summary(result, flags.check ?? false));
    process.exitCode = EXIT.OK;
  } catch (err) {
    const error = toErrorShape(err);
    if (flags.json) console.log(JSON.stringify({ ok: false, error }, null, 2));
    console.error(
      `autofix apply-patch: refused (${error.code}); nothing was written.\n${error.message}`,
    );
    process.exitCode = EXIT.FAILED;
  }
}
