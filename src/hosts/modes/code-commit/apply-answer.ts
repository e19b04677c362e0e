/**
 * One LLM answer of code-commit through the edit engine: the `fenced-files` format (its
 * four syntaxes), code-commit's protected files on top of the default policy, all or nothing. A parse
 * error or a refused path is returned, not thrown: the loop shows it to the LLM like a build error.
 */
import type { Redactor } from '../../../artifacts/redact.js';
import { applyEdits, parseEdits, pathPolicy } from '../../../edits/index.js';
import { isAutofixError } from '../../../errors.js';
import { checkIgnore } from '../../../git/check-ignore.js';
import type { ChangedFile } from '../../../llm/format-file-replacements.js';
import { cutOffMessage } from '../../../pipeline/code/cut-off-message.js';
import { readProposedChange } from '../../../secrets/read-proposed-change.js';
import { refuseCredentials } from '../../../secrets/refuse-credentials.js';

/** What code-commit itself writes into the project: the LLM must not forge its logs. */
const OWN_FILES = ['logs/**', 'llm-user-output.txt'];

const POLICY = pathPolicy({ codeCommitMode: true, protectedPaths: OWN_FILES });

export type AnswerOutcome =
  | {
      ok: true;
      /** `&&&` notes (for the user) and `%%%` notes (for later prompts). */
      userNotes: string[];
      debugNotes: string[];
      changes: ChangedFile[];
      /** The `$$$` message when the LLM said no change is needed. */
      noChange?: string;
    }
  | { ok: false; userNotes: string[]; debugNotes: string[]; refusal: string };

/**
 * `redact` knows the run's secrets: an answer that writes one (or any credential) is refused.
 * `truncated`: why the server says the answer was cut off; such an answer is never written.
 */
export async function applyAnswer(
  projectDir: string,
  text: string,
  redact: Redactor,
  truncated: string | null = null,
): Promise<AnswerOutcome> {
  if (truncated !== null)
    return {
      ok: false,
      userNotes: [],
      debugNotes: [],
      refusal: `LLM_OUTPUT_INVALID: ${cutOffMessage('fenced-files', text, truncated)} Send it again complete; if it is long, change fewer files.`,
    };
  let userNotes: string[] = [];
  let debugNotes: string[] = [];
  try {
    // Parse alone first, so the notes of an answer refused for its paths still reach the user.
    const parsed = await parseEdits('fenced-files', text, () => Promise.resolve(undefined));
    userNotes = parsed.changeSet.notes.user;
    debugNotes = parsed.changeSet.notes.debug;
    // Before anything is written: a credential never lands in the project, even for a moment.
    await refuseCredentials(await readProposedChange(projectDir, parsed.changeSet.files), redact);
    const result = await applyEdits({
      repoDir: projectDir,
      format: 'fenced-files',
      text,
      policy: POLICY,
      isIgnored: (paths) => checkIgnore(projectDir, paths),
    });
    return {
      ok: true,
      userNotes,
      debugNotes,
      changes: parsed.changeSet.files.map((f) => ({
        path: f.path,
        content: f.op === 'delete' ? undefined : (f.content ?? ''),
      })),
      ...(result.noChange === undefined ? {} : { noChange: result.noChange }),
    };
  } catch (err) {
    if (!isAutofixError(err)) throw err;
    return { ok: false, userNotes, debugNotes, refusal: `${err.code}: ${err.message}` };
  }
}
