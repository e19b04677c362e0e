import type { RepoConfig } from '../../config/repo-config.js';
import type { FixPlan, TriageResult } from '../../contracts.js';
import { branchName } from '../../git/branch-name.js';
import { fixPlanSchema } from '../../llm/schemas.js';
import { askAgent } from '../ask-agent.js';
import { issueData } from '../issue-data.js';
import type { IssueInput, PipelinePorts, RepoContext } from '../ports.js';

export interface PlannerInput {
  issue: IssueInput;
  triage: TriageResult;
  context: RepoContext;
  config: Pick<RepoConfig, 'validate' | 'branch_prefix'>;
  model: string;
  /** Whether a repository path exists now (MODIFY/DELETE need it, CREATE must not). */
  exists: (path: string) => boolean;
  /** Path policy over the planned paths; throws PROTECTED_PATH / WRITE_SCOPE_VIOLATION. */
  checkPaths: (paths: readonly string[]) => Promise<void>;
  /** A maintainer's changes to an earlier plan (`/autofix plan …`), sanitized, oldest first. */
  planNotes?: readonly string[];
  /** The plan those changes are to (the run's last one), shown with them. */
  previousPlan?: Pick<FixPlan, 'plan_steps' | 'file_changes' | 'validation_commands'>;
}

/** The notes as the prompt shows them (numbered, after the plan they change), or `(none)`. */
function planNotesText(input: Pick<PlannerInput, 'planNotes' | 'previousPlan'>): string {
  const notes = input.planNotes;
  if (!notes || notes.length === 0) return '(none)';
  const changes = notes.map((note, i) => `${i + 1}. ${note}`).join('\n');
  if (!input.previousPlan) return changes;
  const { plan_steps, file_changes, validation_commands } = input.previousPlan;
  const earlier = JSON.stringify({ plan_steps, file_changes, validation_commands }, null, 2);
  return `The earlier plan:\n${earlier}\n\nThe changes asked for:\n${changes}`;
}

const normalize = (command: string): string => command.trim().replace(/\s+/g, ' ');

/**
 * Planner stage: the FixPlan is the contract of which files the code agent may change. Paths are
 * checked against the work tree inside the schema, so a wrong one is re-asked like bad JSON;
 * protected paths end the run before any code is written.
 */
export async function runPlanner(input: PlannerInput, ports: PipelinePorts): Promise<FixPlan> {
  const schema = fixPlanSchema.superRefine((plan, ctx) => {
    plan.file_changes.forEach((change, i) => {
      const present = input.exists(change.path);
      if (change.operation === 'CREATE' && present) {
        ctx.addIssue({
          code: 'custom',
          path: ['file_changes', i, 'operation'],
          message: `${change.path} already exists: use MODIFY`,
        });
      } else if (change.operation !== 'CREATE' && !present) {
        ctx.addIssue({
          code: 'custom',
          path: ['file_changes', i, 'path'],
          message: `${change.path} does not exist: use a path from the repository map, or CREATE for a new file`,
        });
      }
    });
  });
  const plan = await askAgent(ports, {
    agent: 'planner',
    stage: 'plan',
    model: input.model,
    schema,
    schemaName: 'FixPlan',
    data: {
      ...issueData(input.issue),
      triage: input.triage,
      repo_map: input.context.repoMap,
      code_context: input.context.codeContext,
      allowed_commands:
        input.config.validate.length > 0 ? input.config.validate.join('\n') : '(none)',
      plan_notes: planNotesText(input),
    },
  });
  await input.checkPaths(plan.file_changes.map((c) => c.path));
  const allowed = new Set(input.config.validate.map(normalize));
  return {
    ...plan,
    // The branch is ours to name: the LLM's suggestion only informs the slug via the title.
    branch_name: branchName({
      type: plan.commit_type,
      issue: input.issue.number,
      title: input.issue.title,
      prefix: input.config.branch_prefix,
    }),
    validation_commands: plan.validation_commands.filter((c) => allowed.has(normalize(c))),
  };
}
