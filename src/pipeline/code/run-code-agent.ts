/**
 * Code stage (seed 003 + the repair loops of seeds 000/001): one LLM call per planned file, all
 * answers applied together or not at all, then the repository's own checks; on any refusal or
 * failure the code fixer gets a bounded brief, the newest content of every changed file and its
 * own earlier debug notes, up to `max_repair_attempts` times.
 */
import type { EditFormat, RepoConfig } from '../../config/repo-config.js';
import type { CommandResult, FixPlan } from '../../contracts.js';
import type { StyleConfig } from '../../context/detect-style.js';
import type { ApplyEditsResult } from '../../edits/index.js';
import { AutofixError, isAutofixError } from '../../errors.js';
import type { ValidationRun } from '../../exec/index.js';
import type { ChangedFile } from '../../llm/format-file-replacements.js';
import { loadAgent, loadEditFormatInstructions, type AgentName } from '../../llm/load-agent.js';
import { renderAgent, type TemplateData } from '../../llm/render-agent.js';
import type { IssueInput, PipelinePorts } from '../ports.js';
import {
  codeAgentData,
  codeFixerData,
  parsePlanAmendments,
  type PromptBase,
} from './code-prompts.js';
import { briefFromCommand, briefFromError, type FailureBrief } from './failure-brief.js';
import { mapLimit } from './map-limit.js';

/** The work tree, seen by the code stage. */
export interface CodeWorkspace {
  readFile(path: string): Promise<string | undefined>;
  /** Applies the answers as one change set, refusing paths outside `scope` (throws AutofixError). */
  apply(
    format: EditFormat,
    texts: readonly string[],
    scope: readonly string[],
  ): Promise<ApplyEditsResult>;
  validate(options: { skipSetup: boolean }): Promise<ValidationRun>;
}

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

export interface CodeResult {
  changes: { path: string; operation: 'created' | 'modified' | 'deleted' }[];
  validation: CommandResult[];
  warnings: string[];
  notes: { user: string[]; debug: string[] };
  amendments: { path: string; why: string }[];
  /** Repair rounds used (0 = the first answer passed). */
  repairs: number;
}

export interface CodePorts extends PipelinePorts {
  workspace: CodeWorkspace;
  /** Called with each validation run (artifacts: `query-N-build.txt`). */
  onValidation?: (run: ValidationRun) => void;
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
  };
  const ask = async (name: AgentName, data: TemplateData): Promise<string> => {
    const prompt = renderAgent(await loadAgent(name, agentOptions), data);
    const reply = await ports.llm.chat({
      model: input.model,
      messages: prompt.messages,
      temperature: prompt.temperature,
      stage: 'code',
      ...(ports.signal ? { signal: ports.signal } : {}),
    });
    return reply.text;
  };

  const scope = new Set(input.plan.file_changes.map((c) => c.path));
  const changed: ChangedFile[] = [];
  const created = new Set<string>();
  const touched = new Set<string>();
  const notes = { user: [] as string[], debug: [] as string[] };
  const amendments: { path: string; why: string }[] = [];
  let setupPassed = false;

  /** Applies one round's answers and validates; returns the failure, or the passing run. */
  const attempt = async (
    texts: string[],
  ): Promise<{ brief: FailureBrief } | { run: ValidationRun }> => {
    let applied: ApplyEditsResult;
    try {
      applied = await workspace.apply(format, texts, [...scope]);
    } catch (err) {
      if (!isAutofixError(err) || err.code === 'INTERNAL') throw err;
      ports.progress?.({
        stage: 'code',
        status: 'info',
        message: `answer refused (${err.code}); asking the fixer`,
      });
      return { brief: briefFromError(err) };
    }
    notes.user.push(...applied.changeSet.notes.user);
    notes.debug.push(...applied.changeSet.notes.debug);
    for (const file of applied.files) {
      if (file.unchanged) continue;
      touched.add(file.path);
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
      return {
        brief: briefFromError(
          new AutofixError(
            'INVALID_DIFF',
            `${why} The issue still needs a fix: change the planned files.`,
          ),
        ),
      };
    }
    ports.progress?.({
      stage: 'validate',
      status: 'start',
      message: `validating ${touched.size} changed file(s)`,
    });
    const run = await workspace.validate({ skipSetup: setupPassed });
    ports.onValidation?.(run);
    if (run.failed?.phase === 'validate' || run.passed) setupPassed = true;
    if (run.passed) return { run };
    return { brief: briefFromCommand(run.failed?.result ?? run.results[run.results.length - 1]!) };
  };

  ports.progress?.({
    stage: 'code',
    status: 'start',
    message: `writing ${input.plan.file_changes.length} planned file change(s)`,
  });
  const answers = await mapLimit(input.plan.file_changes, input.concurrency ?? 3, async (change) =>
    ask('code-agent', codeAgentData(base, change, await workspace.readFile(change.path))),
  );
  let outcome = await attempt(answers);
  let repairs = 0;
  while ('brief' in outcome && repairs < input.config.max_repair_attempts) {
    repairs += 1;
    ports.progress?.({
      stage: 'code',
      status: 'info',
      message: `repair ${repairs}/${input.config.max_repair_attempts} after ${outcome.brief.code}${outcome.brief.command ? ` in \`${outcome.brief.command}\`` : ''}`,
    });
    const text = await ask(
      'code-fixer',
      codeFixerData(base, {
        attempt: repairs,
        maxAttempts: input.config.max_repair_attempts,
        brief: outcome.brief,
        changed,
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
    outcome = await attempt([text]);
  }

  if ('brief' in outcome) {
    const { brief } = outcome;
    throw new AutofixError(
      brief.stage === 'validate' ? 'VALIDATION_FAILED' : (brief.code as AutofixError['code']),
      `${brief.stage === 'validate' ? `\`${brief.command}\` still fails` : 'The change is still refused'} after ${repairs} repair attempt(s):\n${brief.excerpt}`,
      { details: { brief, repairs }, recoverable: false },
    );
  }
  const changes = [...touched].map((path) => {
    const latest = changed.filter((c) => c.path === path).at(-1);
    const operation: CodeResult['changes'][number]['operation'] =
      latest?.content === undefined ? 'deleted' : created.has(path) ? 'created' : 'modified';
    return { path, operation };
  });
  return {
    changes: changes.filter((c) => !(c.operation === 'deleted' && created.has(c.path))),
    validation: outcome.run.results,
    warnings: outcome.run.warnings,
    notes,
    amendments,
    repairs,
  };
}
