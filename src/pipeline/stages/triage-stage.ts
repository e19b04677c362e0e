/** Triage: rates the issue and pins what later stages must see the same (base commit, guidance). */
import { readGuidanceAtBase } from '../read-guidance.js';
import { runTriage } from '../triage/run-triage.js';
import { issueOf, signalOf, type StageEnv } from './stage-env.js';
import type { StageResult } from './stage-fn.js';
import type { TriageResult } from '../../contracts.js';

export async function triageStage(env: StageEnv): Promise<StageResult<TriageResult>> {
  return env.workspace(async (ws, io) => {
    const guidance = await readGuidanceAtBase(ws);
    const pins = { baseCommit: ws.base_commit, ...(guidance ? { guidance } : {}) };
    const issue = issueOf({ facts: env.facts, pins });
    const context = await env.context(ws, issue);
    const output = await runTriage(
      { issue, context, config: env.facts.config, model: env.model('triage') },
      { llm: env.llm, log: env.log, readOverride: io.readOverride, ...signalOf(env) },
    );
    // The ranking's reasons travel with the output (bounded), for the run page.
    const ranked = context.top && context.top.length > 0 ? { ranked: [...context.top] } : {};
    return { kind: 'continue', output: { ...output, ...ranked }, pins };
  });
}
