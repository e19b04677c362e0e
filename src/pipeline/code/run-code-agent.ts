/**
 * Code stage (seed 003 + the repair loops of seeds 000/001): `setup` and the base commit's own
 * validation (the baseline) run while the model writes one answer per planned file; all answers
 * are applied together or not at all, then the repository's own checks; on any refusal or
 * failure the code fixer gets a bounded brief, the newest content of every changed file and its
 * own earlier debug notes, up to `max_repair_attempts` times. A failing `setup` on the base commit
 * ends the run (`SETUP_FAILED`) without a repair; a failure that already exists on the base commit
 * is reported, not sent to the fixer (`baseline.ts` has the rule). A run that fails reports the
 * root cause first: the last failing validation command, then what the repairs did after it.
 * The rounds run on the shared repair loop (`repair-loop.ts`), as the local modes' do.
 */
import type { EditFormat, RepoConfig } from '../../config/repo-config.js';
import type { CodeSummary, FixPlan } from '../../contracts.js';
import type { StyleConfig } from '../../context/detect-style.js';
import type { ApplyEditsResult } from '../../edits/index.js';
import { AutofixError, isAutofixError } from '../../errors.js';
import type { ExecResult, ValidationPhase, ValidationRun } from '../../exec/index.js';
import { looksLikeNetworkFailure } from '../../exec/failure-signature.js';
import type { ChangedFile } from '../../llm/format-file-replacements.js';
import { declined } from '../../llm/ask-json.js';
import { loadAgent, loadEditFormatInstructions, type AgentName } from '../../llm/load-agent.js';
import { renderAgent, type TemplateData } from '../../llm/render-agent.js';
import type { IssueInput, PipelinePorts } from '../ports.js';
import {
  codeAgentData,
  codeFixerData,
  parsePlanAmendments,
  type PromptBase,
} from './code-prompts.js';
import { extractIssueRefs } from '../../context/extract-issue-refs.js';
import {
  baselineFailing,
  judgeFailure,
  mentionsAnyOf,
  networkHint,
  touchesSetupInputs,
  type Baseline,
} from './baseline.js';
import { commandProgress } from './command-progress.js';
import {
  briefFromCommand,
  briefFromError,
  commandOutput,
  type FailureBrief,
} from './failure-brief.js';
import { cutBrief, continued, cutIndex, type RoundAnswer } from './continue-cut-answer.js';
import { mapLimit } from './map-limit.js';
import { repairLoop, type RoundVerdict } from './repair-loop.js';
import {
  firstLine,
  renderRootCause,
  rootCauseOf,
  setupFailed,
  type RootCause,
} from './root-cause.js';

/** The work tree, seen by the code stage. */
export interface CodeWorkspace {
  readFile(path: string): Promise<string | undefined>;
  /** Applies the answers as one change set, refusing paths outside `scope` (throws AutofixError). */
  apply(
    format: EditFormat,
    texts: readonly string[],
    scope: readonly string[],
  ): Promise<ApplyEditsResult>;
  /** `setup` on the base commit; undefined when the repository has none. */
  setup(hooks: CommandHooks): Promise<ValidationRun | undefined>;
  /** The base commit's own validation (cached); null when turned off or nothing validates. */
  baseline(
    hooks: CommandHooks,
  ): Promise<{ baseline: Baseline; cached: boolean; run?: ValidationRun } | null>;
  validate(
    options: CommandHooks & {
      skipSetup: boolean;
      tolerate?: (result: ExecResult) => string | undefined;
    },
  ): Promise<ValidationRun>;
}

export interface CommandHooks {
  onStart?: (line: string, phase: ValidationPhase) => void;
  onResult?: (result: ExecResult, phase: ValidationPhase) => void;
  signal?: AbortSignal;
}

/** Which validation a log holds. */
export type ValidationKind = 'setup' | 'baseline' | 'change';

export interface CodeInput {
  issue: IssueInput;
  plan: FixPlan;
  config: Pick<RepoConfig, 'edit_format' | 'max_repair_attempts' | 'allow_plan_amendments'>;
  model: string;
  style: StyleConfig;
  codeContext: string;
  /** Parallel LLM calls for the first round. */
  concurrency?: number;
}

/** What the code agent found and did: the one definition is `CodeSummary` (contracts.ts). */
export type CodeResult = CodeSummary;

export interface CodePorts extends PipelinePorts {
  workspace: CodeWorkspace;
  /** Called with each validation run; returns the artifact that holds its log, if any. */
  onValidation?: (run: ValidationRun, kind: ValidationKind) => string | undefined;
}

export async function runCodeAgent(input: CodeInput, ports: CodePorts): Promise<CodeResult> {
  const { workspace } = ports;
  const format = input.config.edit_format;
  const agentOptions = {
    ...(ports.agentsDir ? { agentsDir: ports.agentsDir } : {}),
    ...(ports.readOverride ? { readOverride: ports.readOverride } : {}),
  };
  const base: PromptBase = {
    issue: input.issue,
    plan: input.plan,
    style: input.style,
    codeContext: input.codeContext,
    editFormatInstructions: await loadEditFormatInstructions(format, agentOptions),
    // Large files are shown as regions for the formats that quote lines (`file-view.ts`).
    editFormat: format,
  };
  const ask = async (
    name: AgentName,
    data: TemplateData,
    signal: AbortSignal | undefined = ports.signal,
  ): Promise<RoundAnswer> => {
    const prompt = renderAgent(await loadAgent(name, agentOptions), data);
    const reply = await ports.llm.chat({
      model: input.model,
      messages: prompt.messages,
      temperature: prompt.temperature,
      stage: 'code',
      ...(signal ? { signal } : {}),
    });
    const { text, truncated } = declined(reply, { stage: 'code' });
    return { text, truncated };
  };

  const scope = new Set(input.plan.file_changes.map((c) => c.path));
  // What the issue is about: a failure that names these is the fix's to make pass (baseline.ts).
  const refs = extractIssueRefs(
    [input.issue.title, input.issue.body, input.issue.instructions ?? ''].join('\n'),
  );
  const issueTerms = [
    ...refs.identifiers,
    ...refs.paths.map((p) => stemOf(p.path)),
    ...[...scope].map(stemOf),
  ];
  const changed: ChangedFile[] = [];
  const created = new Set<string>();
  const touched = new Set<string>();
  const notes = { user: [] as string[], debug: [] as string[] };
  const amendments: { path: string; why: string }[] = [];
  /** The newest failing validation of the change: what the report leads with. */
  let rootCause: RootCause | undefined;
  /** What each repair round did after the first answer, for the report. */
  const after: string[] = [];
  let baseline: Baseline | null = null;
  let baselineCached = false;

  const hooks = (kind: ValidationKind, signal?: AbortSignal): CommandHooks => ({
    ...commandProgress(ports.progress, kind),
    ...(signal ? { signal } : {}),
  });

  /** Setup and the baseline on the base commit; throws SETUP_FAILED when setup fails. */
  const prepare = async (signal: AbortSignal): Promise<string[]> => {
    const setupRun = await workspace.setup(hooks('setup', signal));
    if (setupRun) {
      const log = ports.onValidation?.(setupRun, 'setup');
      if (!setupRun.passed && !signal.aborted) throw setupFailed(setupRun, log);
    }
    const base = signal.aborted ? null : await workspace.baseline(hooks('baseline', signal));
    if (base?.run) ports.onValidation?.(base.run, 'baseline');
    baseline = base?.baseline ?? null;
    baselineCached = base?.cached ?? false;
    return setupRun?.warnings ?? [];
  };

  const refused = (failure: FailureBrief): RoundVerdict<ValidationRun, FailureBrief> => ({
    passed: false,
    failure,
  });
  /** A round refused before anything was written (`why`): reported, the fixer's brief returned. */
  const refusedAnswer = (
    brief: FailureBrief,
    round: number,
    why: string,
  ): RoundVerdict<ValidationRun, FailureBrief> => {
    const what = brief.continuation ? 'cut off' : 'refused';
    ports.progress?.({
      stage: 'code',
      status: 'info',
      message: `answer ${what} (${brief.code}); asking the fixer${brief.continuation ? ' for the rest' : ''}`,
    });
    if (round > 0)
      after.push(`repair ${round}: the answer was ${what} (${brief.code}): ${firstLine(why)}`);
    return refused(brief);
  };
  /** Applies one round's answers and validates; returns the failure, or the passing run. */
  const attempt = async (
    answers: RoundAnswer[],
    round: number,
  ): Promise<RoundVerdict<ValidationRun, FailureBrief>> => {
    // An answer the server says was cut off is never applied, however complete it looks.
    const cut = answers.findIndex((a) => a.truncated !== null);
    if (cut >= 0) {
      const brief = cutBrief(format, answers, cut, answers[cut]?.truncated ?? '');
      return refusedAnswer(brief, round, brief.excerpt);
    }
    let applied: ApplyEditsResult;
    try {
      applied = await workspace.apply(
        format,
        answers.map((a) => a.text),
        [...scope],
      );
    } catch (err) {
      if (!isAutofixError(err) || err.code === 'INTERNAL') throw err;
      const seen = cutIndex(answers, err);
      return refusedAnswer(
        seen === undefined
          ? briefFromError(err)
          : cutBrief(format, answers, seen, 'the answer itself shows it', err),
        round,
        err.message,
      );
    }
    notes.user.push(...applied.changeSet.notes.user);
    notes.debug.push(...applied.changeSet.notes.debug);
    const roundPaths: string[] = [];
    for (const file of applied.files) {
      if (file.unchanged) continue;
      touched.add(file.path);
      roundPaths.push(file.path);
      if (file.created) created.add(file.path);
      changed.push({
        path: file.path,
        content: file.op === 'delete' ? undefined : await workspace.readFile(file.path),
      });
    }
    if (touched.size === 0) {
      const why = applied.noChange
        ? `The answer says no change is needed: ${applied.noChange}`
        : 'The answer changes no file.';
      if (round > 0) after.push(`repair ${round}: ${why}`);
      return refused(
        briefFromError(
          new AutofixError(
            'INVALID_DIFF',
            `${why} The issue still needs a fix: change the planned files.`,
          ),
        ),
      );
    }
    ports.progress?.({
      stage: 'validate',
      status: 'start',
      message: `validating ${touched.size} changed file(s)`,
    });
    const entryOf = (command: string) => baseline?.commands.find((c) => c.command === command);
    const about = mentionsAnyOf([...issueTerms, ...[...touched].map(stemOf)]);
    const run = await workspace.validate({
      ...hooks('change'),
      // Setup ran on the base commit; again only when the change touched what it installs from.
      skipSetup: !touchesSetupInputs(roundPaths),
      tolerate: (result) => {
        const verdict = judgeFailure(result, entryOf(result.command), about);
        if (verdict.kind === 'new') return undefined;
        const hint = networkHint(entryOf(result.command));
        return hint ? `${verdict.note} ${hint}` : verdict.note;
      },
    });
    const log = ports.onValidation?.(run, 'change');
    if (run.passed) return { passed: true, value: run };
    const failed = run.failed ?? {
      phase: 'validate' as const,
      result: run.results[run.results.length - 1]!,
    };
    const verdict = judgeFailure(failed.result, entryOf(failed.result.command), about);
    const brief = briefFromCommand(failed.result, {
      phase: failed.phase,
      new_failures: verdict.kind === 'new' ? verdict.newFailures : null,
      ...(verdict.kind === 'new' && verdict.aboutTheIssue ? { about_the_issue: true } : {}),
      network: looksLikeNetworkFailure(commandOutput(failed.result)),
      ...(log ? { log } : {}),
    });
    rootCause = rootCauseOf(brief, round);
    if (round > 0) {
      after.push(
        `repair ${round}: \`${brief.command}\` still fails (exit ${brief.exit_code ?? 'none'})`,
      );
    }
    return refused(brief);
  };

  /** Each planned file as the first round saw it: the fixer's view centres on what changed. */
  const originals = new Map<string, string | undefined>();
  let setupWarnings: string[] = [];
  /** Round 0: one answer per planned file, while setup and the baseline run. */
  const firstAnswers = async (): Promise<RoundAnswer[]> => {
    // The model writes while setup and the baseline run; whichever fails first stops the other.
    const stopAsks = new AbortController();
    const stopChecks = new AbortController();
    const asksSignal = ports.signal
      ? AbortSignal.any([ports.signal, stopAsks.signal])
      : stopAsks.signal;
    const checksSignal = ports.signal
      ? AbortSignal.any([ports.signal, stopChecks.signal])
      : stopChecks.signal;
    const answersP = mapLimit(input.plan.file_changes, input.concurrency ?? 3, async (change) => {
      const content = await workspace.readFile(change.path);
      originals.set(change.path, content);
      return ask('code-agent', codeAgentData(base, change, content), asksSignal);
    });
    const checksP = prepare(checksSignal);
    const [answers, checks] = await Promise.allSettled([
      answersP.catch((err: unknown) => {
        stopChecks.abort();
        throw err;
      }),
      checksP.catch((err: unknown) => {
        stopAsks.abort();
        throw err;
      }),
    ]);
    // Setup's failure is the root cause even when it cut the model's answers short.
    if (checks.status === 'rejected') throw checks.reason;
    if (answers.status === 'rejected') throw answers.reason;
    setupWarnings = checks.value;
    return answers.value;
  };
  /**
   * Round n ≥ 1: the fixer's one answer to the brief of round n - 1; after a cut-off answer, the
   * rest of it, applied with what was kept (`continue-cut-answer.ts`).
   */
  const repairAnswer = async (round: number, brief: FailureBrief): Promise<RoundAnswer[]> => {
    ports.progress?.({
      stage: 'code',
      status: 'info',
      message: `repair ${round}/${input.config.max_repair_attempts} after ${brief.code}${brief.command ? ` in \`${brief.command}\`` : ''}`,
    });
    const { text, truncated } = await ask(
      'code-fixer',
      codeFixerData(base, {
        attempt: round,
        maxAttempts: input.config.max_repair_attempts,
        brief,
        changed,
        originals,
        debugNotes: notes.debug,
        allowAmendments: input.config.allow_plan_amendments,
      }),
    );
    if (input.config.allow_plan_amendments) {
      for (const amendment of parsePlanAmendments(text)) {
        if (!scope.has(amendment.path)) {
          scope.add(amendment.path);
          amendments.push(amendment);
        }
      }
    }
    if (!brief.continuation) return [{ text, truncated }];
    const texts = continued(brief.continuation, text);
    return texts.map((t, i) => ({ text: t, truncated: i === texts.length - 1 ? truncated : null }));
  };

  ports.progress?.({
    stage: 'code',
    status: 'start',
    message: `writing ${input.plan.file_changes.length} planned file change(s)`,
  });
  const outcome = await repairLoop(
    {
      maxRepairs: input.config.max_repair_attempts,
      ...(ports.signal ? { signal: ports.signal } : {}),
    },
    {
      ask: ({ round, previous }) =>
        previous === undefined ? firstAnswers() : repairAnswer(round, previous),
      check: attempt,
    },
  );
  const { repairs } = outcome;

  if (!outcome.passed) {
    const brief = outcome.failure;
    if (rootCause) {
      // The change failed the repository's checks: that is the root cause, whatever came after.
      throw new AutofixError('VALIDATION_FAILED', renderRootCause(rootCause, after, repairs), {
        details: { root_cause: rootCause, after, repairs },
        recoverable: false,
      });
    }
    throw new AutofixError(
      brief.code as AutofixError['code'],
      `The change is still refused after ${repairs} repair attempt(s):\n${brief.excerpt}`,
      { details: { brief, after, repairs }, recoverable: false },
    );
  }
  const changes = [...touched].map((path) => {
    const latest = changed.filter((c) => c.path === path).at(-1);
    const operation: CodeResult['changes'][number]['operation'] =
      latest?.content === undefined ? 'deleted' : created.has(path) ? 'created' : 'modified';
    return { path, operation };
  });
  const finalBaseline = baseline as Baseline | null;
  const failingOnBase = baselineFailing(finalBaseline).map((c) => c.command);
  const warnings = [...new Set([...setupWarnings, ...outcome.value.warnings])];
  warnings.push(...outcome.value.tolerated.map((t) => t.note));
  // Every validate command that ran failed, each excused by the baseline: nothing verified it.
  const validated = outcome.value.results.filter((r) =>
    finalBaseline?.commands.some((c) => c.command === r.command),
  );
  if (validated.length > 0 && validated.every((r) => r.exit_code !== 0 || r.timed_out)) {
    warnings.push(
      "No validation command passes, on the base commit or with the change, so the repository's checks do not verify this change: review it by hand.",
    );
  }
  return {
    changes: changes.filter((c) => !(c.operation === 'deleted' && created.has(c.path))),
    validation: outcome.value.results,
    warnings,
    notes,
    amendments,
    repairs,
    baseline: finalBaseline
      ? { commit: finalBaseline.commit, cached: baselineCached, failing: failingOnBase }
      : null,
    preexisting: outcome.value.tolerated.map((t) => t.result.command),
  };
}

/** A file's name without folders and extension: how test output usually names it. */
function stemOf(path: string): string {
  return (path.split('/').pop() ?? path).replace(/\.[^.]+$/, '');
}
