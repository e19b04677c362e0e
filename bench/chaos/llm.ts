/**
 * The scripted LLM for every run, retries included and in any order: each request is answered
 * from its system prompt (which agent is asking) with the sample repository's valid answer. The
 * code agent and the code fixer both answer the fix, as a model shown the issue would — also when
 * a retried code stage starts from a branch that already has it.
 */
import type {
  FakeLlmServer,
  RecordedRequest,
  StaticReply,
} from '../../test/helpers/fake-llm-server.js';
import { FIX_DIFF, PLAN, PR_SUMMARY, TRIAGE } from '../../test/helpers/sample-repo.js';

const AGENTS: [RegExp, string, string][] = [
  [/You are the triage agent/, 'triage', JSON.stringify(TRIAGE)],
  [/You are the planner agent/, 'plan', JSON.stringify(PLAN)],
  [/You are the code agent/, 'code', FIX_DIFF],
  [/You are the code fixer/, 'fixer', FIX_DIFF],
  [/You are the pull-request writer/, 'pr', JSON.stringify(PR_SUMMARY)],
];

export function answer(request: RecordedRequest, counts: Map<string, number>): StaticReply {
  const system = request.body.messages.find((m) => m.role === 'system')?.content ?? '';
  for (const [pattern, agent, content] of AGENTS) {
    if (!pattern.test(system)) continue;
    counts.set(agent, (counts.get(agent) ?? 0) + 1);
    return content;
  }
  counts.set('unknown', (counts.get('unknown') ?? 0) + 1);
  return { status: 400, body: { error: { message: 'bench:chaos: unknown agent prompt' } } };
}

/** Keeps the server's script from ever running out; returns the answers given per agent. */
export function scriptForever(llm: FakeLlmServer): Map<string, number> {
  const counts = new Map<string, number>();
  const reply = (request: RecordedRequest): StaticReply => {
    llm.enqueue(reply);
    return answer(request, counts);
  };
  for (let i = 0; i < 16; i++) llm.enqueue(reply);
  return counts;
}
