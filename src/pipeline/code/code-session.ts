/**
 * What one code stage holds while its rounds run: the prompts' common part, the state the rounds
 * share (what changed, what was created, the notes, the baseline, the root cause, what each repair
 * did) and the steps every strategy uses — prepare (setup and the baseline), apply an answer,
 * validate what changed, and the result or the failure at the end. The strategies
 * (`one-shot-rounds.ts`, `tool-rounds.ts`) decide how answers are asked for.
 */
import type { CodeSummary, Exploration } from '../../contracts.js';
import type { ApplyEditsResult } from '../../edits/index.js';
import { AutofixError, isAutofixError } from '../../errors.js';
import type { ValidationRun } from '../../exec/index.js';
import { looksLikeNetworkFailure } from '../../exec/failure-signature.js';
import type { ChangedFile } from '../../llm/format-file-replacements.js';
import { declined } from '../../llm/ask-json.js';
import {
  loadAgent,
  loadEditFormatInstructions,
  type AgentName,
  type LoadAgentOptions,
} from '../../llm/load-agent.js';
import { renderAgent, type TemplateData } from '../../llm/render-agent.js';
import { extractIssueRefs } from '../../context/extract-issue-refs.js';
import type { PromptBase } from './code-prompts.js';
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
import { cutBrief, cutIndex, type RoundAnswer } from './continue-cut-answer.js';
import type { RepairLoopResult, RoundVerdict } from './repair-loop.js';
import {
  firstLine,
  renderRootCause,
  rootCauseOf,
  setupFailed,
  type RootCause,
} from './root-cause.js';
import type { CodeInput, CodePorts, CommandHooks, ValidationKind } from './run-code-agent.js';

export type Verdict = RoundVerdict<ValidationRun, FailureBrief>;

export interface CodeSession {
  input: CodeInput;
  ports: CodePorts;
  base: PromptBase;
  /** The files a round may change: the plan's, and the amendments accepted since. */
  scope: Set<string>;
  notes: { user: string[]; debug: string[] };
  amendments: { path: string; why: string }[];
  /** Every content each changed file had after a round, in order. */
  changed: ChangedFile[];
  /** Each planned file as the first round saw it: the fixer's view centres on what changed. */
  originals: Map<string, string | undefined>;
  /** What each repair round did after the first answer, for the report. */
  after: string[];
  setupWarnings: string[];
  /** What the code agent looked at, when it works with tools. */
  exploration?: Exploration;
  ask(name: AgentName, data: TemplateData, signal?: AbortSignal): Promise<RoundAnswer>;
  hooks(kind: ValidationKind, signal?: AbortSignal): CommandHooks;
  /** Setup and the baseline on the base commit; throws SETUP_FAILED when setup fails. */
  prepare(signal: AbortSignal): Promise<string[]>;
  refused(failure: FailureBrief): Verdict;
  /** A round refused before anything was written (`why`): reported, the fixer's brief returned. */
  refusedAnswer(brief: FailureBrief, round: number, why: string): Verdict;
  /** Nothing changed after a round (`said`: the model's reason): refused, the fixer asked. */
  noChange(said: string | undefined, round: number): Verdict;
  /** Files changed so far. */
  touchedCount(): number;
  /** Applies one round's answers; the paths it changed, or the refusal. */
  apply(answers: RoundAnswer[], round: number): Promise<string[] | Verdict>;
  /** Records what an applied answer changed; the paths it changed. */
  record(applied: ApplyEditsResult): Promise<string[]>;
  /** Validates after a round that changed `roundPaths`; the failure, or the passing run. */
  validate(roundPaths: string[], round: number): Promise<Verdict>;
  /** The stage's result, or the failure that ends it. */
  result(outcome: RepairLoopResult<ValidationRun, FailureBrief>): CodeSummary;
}

/** A file's name without folders and extension: how test output usually names it. */
function stemOf(path: string): string {
  return (path.split('/').pop() ?? path).replace(/\.[^.]+$/, '');
}

interface SessionState {
  created: Set<string>;
  touched: Set<string>;
  issueTerms: string[];
  baseline: Baseline | null;
  baselineCached: boolean;
  /** The newest failing validation of the change: what the report leads with. */
  rootCause?: RootCause;
  /**
   * Each command's latest result with the change (a round stops at its first failure, so a later
   * command's result may be an earlier round's): a failure's `details.validation`, so a report
   * can tell what the reproduction's command did after the change.
   */
  latest: Map<string, { command: string; exit_code: number | null; timed_out: boolean }>;
}

/** What every prompt of the stage shares: the issue, the plan, the context, the edit format. */
async function promptBaseOf(input: CodeInput, agentOptions: LoadAgentOptions): Promise<PromptBase> {
  const format = input.config.edit_format;
  return {
    issue: input.issue,
    plan: input.plan,
    style: input.style,
    codeContext: input.codeContext,
    editFormatInstructions: await loadEditFormatInstructions(format, agentOptions),
    // Large files are shown as regions for the formats that quote lines (`file-view.ts`).
    editFormat: format,
  };
}

function initialState(input: CodeInput, scope: ReadonlySet<string>): SessionState {
  // What the issue is about: a failure that names these is the fix's to make pass (baseline.ts).
  const refs = extractIssueRefs(
    [input.issue.title, input.issue.body, input.issue.instructions ?? ''].join('\n'),
  );
  return {
    created: new Set(),
    touched: new Set(),
    issueTerms: [
      ...refs.identifiers,
      ...refs.paths.map((p) => stemOf(p.path)),
      ...[...scope].map(stemOf),
    ],
    baseline: null,
    baselineCached: false,
    latest: new Map(),
  };
}

async function askAgent(
  session: CodeSession,
  agentOptions: LoadAgentOptions,
  name: AgentName,
  data: TemplateData,
  signal: AbortSignal | undefined,
): Promise<RoundAnswer> {
  const prompt = renderAgent(await loadAgent(name, agentOptions), data);
  const reply = await session.ports.llm.chat({
    model: session.input.model,
    messages: prompt.messages,
    temperature: prompt.temperature,
    stage: 'code',
    ...(signal ? { signal } : {}),
  });
  const { text, truncated } = declined(reply, { stage: 'code' });
  return { text, truncated };
}

function refusedAnswer(
  session: CodeSession,
  brief: FailureBrief,
  round: number,
  why: string,
): Verdict {
  const what = brief.continuation ? 'cut off' : 'refused';
  session.ports.progress?.({
    stage: 'code',
    status: 'info',
    message: `answer ${what} (${brief.code}); asking the fixer${brief.continuation ? ' for the rest' : ''}`,
  });
  if (round > 0)
    session.after.push(
      `repair ${round}: the answer was ${what} (${brief.code}): ${firstLine(why)}`,
    );
  return session.refused(brief);
}

export async function createCodeSession(input: CodeInput, ports: CodePorts): Promise<CodeSession> {
  const agentOptions = {
    ...(ports.agentsDir ? { agentsDir: ports.agentsDir } : {}),
    ...(ports.readOverride ? { readOverride: ports.readOverride } : {}),
  };
  const base = await promptBaseOf(input, agentOptions);
  const scope = new Set(input.plan.file_changes.map((c) => c.path));
  const state = initialState(input, scope);
  const session: CodeSession = {
    input,
    ports,
    base,
    scope,
    notes: { user: [], debug: [] },
    amendments: [],
    changed: [],
    originals: new Map(),
    after: [],
    setupWarnings: [],
    ask: (name, data, signal = ports.signal) => askAgent(session, agentOptions, name, data, signal),
    hooks: (kind, signal) => ({
      ...commandProgress(ports.progress, kind),
      ...(signal ? { signal } : {}),
    }),
    prepare: (signal) => prepare(session, state, signal),
    refused: (failure) => ({ passed: false, failure }),
    refusedAnswer: (brief, round, why) => refusedAnswer(session, brief, round, why),
    noChange: (said, round) => noChange(session, said, round),
    apply: (answers, round) => applyAnswers(session, state, answers, round),
    record: (applied) => record(session, state, applied),
    touchedCount: () => state.touched.size,
    validate: (roundPaths, round) => validate(session, state, roundPaths, round),
    result: (outcome) => result(session, state, outcome),
  };
  return session;
}

async function prepare(
  session: CodeSession,
  state: SessionState,
  signal: AbortSignal,
): Promise<string[]> {
  const { workspace } = session.ports;
  const setupRun = await workspace.setup(session.hooks('setup', signal));
  if (setupRun) {
    const log = session.ports.onValidation?.(setupRun, 'setup');
    if (!setupRun.passed && !signal.aborted) throw setupFailed(setupRun, log);
  }
  const base = signal.aborted ? null : await workspace.baseline(session.hooks('baseline', signal));
  if (base?.run) session.ports.onValidation?.(base.run, 'baseline');
  state.baseline = base?.baseline ?? null;
  state.baselineCached = base?.cached ?? false;
  return setupRun?.warnings ?? [];
}

async function applyAnswers(
  session: CodeSession,
  state: SessionState,
  answers: RoundAnswer[],
  round: number,
): Promise<string[] | Verdict> {
  const format = session.input.config.edit_format;
  // An answer the server says was cut off is never applied, however complete it looks.
  const cut = answers.findIndex((a) => a.truncated !== null);
  if (cut >= 0) {
    const brief = cutBrief(format, answers, cut, answers[cut]?.truncated ?? '');
    return session.refusedAnswer(brief, round, brief.excerpt);
  }
  let applied: ApplyEditsResult;
  try {
    applied = await session.ports.workspace.apply(
      format,
      answers.map((a) => a.text),
      [...session.scope],
    );
  } catch (err) {
    if (!isAutofixError(err) || err.code === 'INTERNAL') throw err;
    const seen = cutIndex(answers, err);
    return session.refusedAnswer(
      seen === undefined
        ? briefFromError(err)
        : cutBrief(format, answers, seen, 'the answer itself shows it', err),
      round,
      err.message,
    );
  }
  const roundPaths = await session.record(applied);
  return state.touched.size === 0 ? session.noChange(applied.noChange, round) : roundPaths;
}

function noChange(session: CodeSession, said: string | undefined, round: number): Verdict {
  const why = said ? `The answer says no change is needed: ${said}` : 'The answer changes no file.';
  if (round > 0) session.after.push(`repair ${round}: ${why}`);
  return session.refused(
    briefFromError(
      new AutofixError(
        'INVALID_DIFF',
        `${why} The issue still needs a fix: change the planned files.`,
      ),
    ),
  );
}

async function record(
  session: CodeSession,
  state: SessionState,
  applied: ApplyEditsResult,
): Promise<string[]> {
  session.notes.user.push(...applied.changeSet.notes.user);
  session.notes.debug.push(...applied.changeSet.notes.debug);
  const roundPaths: string[] = [];
  for (const file of applied.files) {
    if (file.unchanged) continue;
    state.touched.add(file.path);
    roundPaths.push(file.path);
    if (file.created) state.created.add(file.path);
    session.changed.push({
      path: file.path,
      content: file.op === 'delete' ? undefined : await session.ports.workspace.readFile(file.path),
    });
  }
  return roundPaths;
}

async function validate(
  session: CodeSession,
  state: SessionState,
  roundPaths: string[],
  round: number,
): Promise<Verdict> {
  const { ports } = session;
  ports.progress?.({
    stage: 'validate',
    status: 'start',
    message: `validating ${state.touched.size} changed file(s)`,
  });
  const entryOf = (command: string) => state.baseline?.commands.find((c) => c.command === command);
  const about = mentionsAnyOf([...state.issueTerms, ...[...state.touched].map(stemOf)]);
  const run = await ports.workspace.validate({
    ...session.hooks('change'),
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
  for (const { command, exit_code, timed_out } of run.results)
    state.latest.set(command, { command, exit_code, timed_out });
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
  state.rootCause = rootCauseOf(brief, round);
  if (round > 0)
    session.after.push(
      `repair ${round}: \`${brief.command}\` still fails (exit ${brief.exit_code ?? 'none'})`,
    );
  return session.refused(brief);
}

function result(
  session: CodeSession,
  state: SessionState,
  outcome: RepairLoopResult<ValidationRun, FailureBrief>,
): CodeSummary {
  const { repairs } = outcome;
  if (!outcome.passed) {
    const brief = outcome.failure;
    if (state.rootCause) {
      // The change failed the repository's checks: that is the root cause, whatever came after.
      throw new AutofixError(
        'VALIDATION_FAILED',
        renderRootCause(state.rootCause, session.after, repairs),
        {
          details: {
            root_cause: state.rootCause,
            after: session.after,
            repairs,
            validation: [...state.latest.values()],
          },
          recoverable: false,
        },
      );
    }
    throw new AutofixError(
      brief.code as AutofixError['code'],
      `The change is still refused after ${repairs} repair attempt(s):\n${brief.excerpt}`,
      {
        details: { brief, after: session.after, repairs, validation: [...state.latest.values()] },
        recoverable: false,
      },
    );
  }
  const changes = [...state.touched].map((path) => {
    const latest = session.changed.filter((c) => c.path === path).at(-1);
    const operation: CodeSummary['changes'][number]['operation'] =
      latest?.content === undefined ? 'deleted' : state.created.has(path) ? 'created' : 'modified';
    return { path, operation };
  });
  const baseline = state.baseline;
  const failingOnBase = baselineFailing(baseline).map((c) => c.command);
  const warnings = [...new Set([...session.setupWarnings, ...outcome.value.warnings])];
  warnings.push(...outcome.value.tolerated.map((t) => t.note));
  // Every validate command that ran failed, each excused by the baseline: nothing verified it.
  const validated = outcome.value.results.filter((r) =>
    baseline?.commands.some((c) => c.command === r.command),
  );
  if (validated.length > 0 && validated.every((r) => r.exit_code !== 0 || r.timed_out)) {
    warnings.push(
      "No validation command passes, on the base commit or with the change, so the repository's checks do not verify this change: review it by hand.",
    );
  }
  return {
    changes: changes.filter((c) => !(c.operation === 'deleted' && state.created.has(c.path))),
    validation: outcome.value.results,
    warnings,
    notes: session.notes,
    amendments: session.amendments,
    repairs,
    baseline: baseline
      ? { commit: baseline.commit, cached: state.baselineCached, failing: failingOnBase }
      : null,
    preexisting: outcome.value.tolerated.map((t) => t.result.command),
    ...(session.exploration ? { exploration: session.exploration } : {}),
  };
}
