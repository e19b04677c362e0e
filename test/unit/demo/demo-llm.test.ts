/**
 * The demo's scripted model answers by the agent that asks (its system prompt), in any order,
 * and the agents' prompts still introduce themselves the way it recognises.
 */
import { readFileSync } from 'node:fs';
import { agentOf, startDemoLlm, type DemoAgent } from '../../../src/demo/demo-llm.js';
import {
  DEMO_FIRST_DIFF,
  DEMO_PLAN,
  DEMO_PR_SUMMARY,
  DEMO_REPAIR_DIFF,
  DEMO_TRIAGE,
} from '../../../src/demo/sample.js';
import type { RecordedRequest } from '../../../fakes/llm/index.js';

const AGENTS: DemoAgent[] = ['triage', 'planner', 'code-agent', 'code-fixer', 'pr-generator'];

/** The system part of agents/<name>.md, as the prompt loader sends it (and the whole file). */
const systemPrompt = (agent: DemoAgent): string =>
  readFileSync(new URL(`../../../agents/${agent}.md`, import.meta.url), 'utf8');

const request = (system: string): RecordedRequest => ({
  n: 1,
  method: 'POST',
  path: '/v1/chat/completions',
  headers: {},
  rawBody: '',
  body: {
    model: 'm',
    messages: [
      { role: 'system', content: system },
      { role: 'user', content: 'You are the triage agent of Autofix (quoted by a user)' },
    ],
  },
  receivedAt: 0,
});

describe('the demo model', () => {
  it.each(AGENTS)('recognises %s by its system prompt in agents/', (agent) => {
    expect(agentOf(request(systemPrompt(agent)))).toBe(agent);
  });

  it('does not take a user message for a system prompt', () => {
    expect(agentOf(request('You are a helpful assistant.'))).toBeUndefined();
  });

  it('answers each agent its part of the script, in any order and as often as asked', async () => {
    const llm = await startDemoLlm();
    try {
      expect(llm.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const ask = async (system: string): Promise<{ status: number; content?: string }> => {
        const res = await fetch(`${llm.baseUrl}/chat/completions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'x', messages: [{ role: 'system', content: system }] }),
        });
        const json = (await res.json()) as { choices?: { message: { content: string } }[] };
        return { status: res.status, content: json.choices?.[0]?.message.content };
      };
      const order: DemoAgent[] = ['pr-generator', 'code-fixer', 'triage', 'code-agent', 'planner'];
      const answers = await Promise.all(order.map((a) => ask(systemPrompt(a))));
      expect(answers.map((a) => a.content)).toEqual([
        JSON.stringify(DEMO_PR_SUMMARY),
        DEMO_REPAIR_DIFF,
        JSON.stringify(DEMO_TRIAGE),
        DEMO_FIRST_DIFF,
        JSON.stringify(DEMO_PLAN),
      ]);
      expect((await ask(systemPrompt('triage'))).content).toBe(JSON.stringify(DEMO_TRIAGE));
      expect((await ask('You are a helpful assistant.')).status).toBe(400);
    } finally {
      await llm.close();
    }
  });
});
