import type { RepoConfig } from '../../config/repo-config.js';
import type { Risk, TriageResult } from '../../contracts.js';
import { AutofixError } from '../../errors.js';
import { triageResultSchema } from '../../llm/schemas.js';
import { askAgent } from '../ask-agent.js';
import { issueData } from '../issue-data.js';
import type { IssueInput, PipelinePorts, RepoContext } from '../ports.js';

const RISK_ORDER: Record<Risk, number> = { LOW: 0, MEDIUM: 1, HIGH: 2 };

export interface TriageInput {
  issue: IssueInput;
  context: RepoContext;
  config: Pick<RepoConfig, 'risk_threshold'>;
  model: string;
}

/** Triage stage: what kind of change, where, and whether the bot should act at all. */
export async function runTriage(input: TriageInput, ports: PipelinePorts): Promise<TriageResult> {
  const triage = await askAgent(ports, {
    agent: 'triage',
    stage: 'triage',
    model: input.model,
    schema: triageResultSchema,
    schemaName: 'TriageResult',
    data: {
      ...issueData(input.issue),
      repo_map: input.context.repoMap,
      code_context: input.context.codeContext,
    },
  });
  if (RISK_ORDER[triage.risk] > RISK_ORDER[input.config.risk_threshold]) {
    throw new AutofixError(
      'RISK_TOO_HIGH',
      `Triage rated this issue ${triage.risk} risk, above this repository's threshold (${input.config.risk_threshold}): ${triage.summary} ` +
        'No code was written. A maintainer can fix it by hand, split it into smaller issues, or raise `risk_threshold` in .github/autofix.yml.',
      { details: { triage }, recoverable: false },
    );
  }
  return triage;
}
