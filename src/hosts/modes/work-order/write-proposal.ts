/**
 * TR: the answer as a strict WriteProposal — on record (proposed_writes.json) even if its writes
 * are refused — then its writes through the edit engine in `json-writes`: only the work order's
 * allowed_files, base_sha256 against the disk, nothing credential-shaped, all or nothing.
 */
import type { Redactor } from '../../../artifacts/redact.js';
import type { RunLog } from '../../../artifacts/run-log.js';
import type { FileChange } from '../../../contracts.js';
import { applyEdits, parseEdits, type PathPolicy } from '../../../edits/index.js';
import { checkIgnore } from '../../../git/check-ignore.js';
import { readProposedChange } from '../../../secrets/read-proposed-change.js';
import { refuseCredentials } from '../../../secrets/refuse-credentials.js';
import { failOnError, type AttemptLog } from './attempt-log.js';

export interface WriteTarget {
  repo: string;
  policy: PathPolicy;
  /** The run's secrets: a proposal that writes one (or any credential) is refused unwritten. */
  redact: Redactor;
  runLog: RunLog;
}

/** The proposal's writes, logged; undefined (the attempt failed) when the answer is not one. */
async function parseProposal(
  target: WriteTarget,
  log: AttemptLog,
  text: string,
): Promise<FileChange[] | undefined> {
  let parsed;
  try {
    parsed = await parseEdits('json-writes', text, () => Promise.resolve(undefined));
  } catch (err) {
    failOnError(log, err);
    return undefined;
  }
  const writes = parsed.changeSet.files;
  target.runLog.json(`${log.dir}/proposed_writes.json`, {
    summary: parsed.changeSet.notes.user.join('\n'),
    writes: writes.map((w) => ({ path: w.path, base_sha256: w.baseSha256, content: w.content })),
  });
  log.record.proposal_path = `${log.dir}/proposed_writes.json`;
  log.record.touched_files = [...new Set(writes.map((w) => w.path))].sort();
  return writes;
}

/** Whether the proposal's writes are on disk; when not, the attempt's brief says why. */
export async function writeProposal(
  target: WriteTarget,
  log: AttemptLog,
  text: string,
): Promise<boolean> {
  const writes = await parseProposal(target, log, text);
  if (!writes) return false;
  try {
    await refuseCredentials(await readProposedChange(target.repo, writes), target.redact);
    const applied = await applyEdits({
      repoDir: target.repo,
      format: 'json-writes',
      text,
      policy: target.policy,
      isIgnored: (paths) => checkIgnore(target.repo, paths),
      scope: log.order.allowed_files,
      scopeName: "the work order's allowed_files",
    });
    log.written = applied.changeSet.files.map((f) => f.path).sort();
    log.record.write_ok = true;
    return true;
  } catch (err) {
    failOnError(log, err);
    return false;
  }
}
