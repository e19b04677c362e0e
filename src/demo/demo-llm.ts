/**
 * The scripted model of `autofix demo`: the scripted server on loopback answering each request
 * by the agent that asks (read from the system prompt of agents/<name>.md), not by order, so a
 * concurrent request or an extra one (a JSON re-ask, a retry) does not derail the script.
 */
import {
  startScriptedLlmServer,
  type RecordedRequest,
  type ScriptedLlmServer,
  type StaticReply,
} from '../../fakes/llm/index.js';
import {
  DEMO_FIRST_DIFF,
  DEMO_PLAN,
  DEMO_PR_SUMMARY,
  DEMO_REPAIR_DIFF,
  DEMO_REPRODUCTION,
  DEMO_TRIAGE,
} from './sample.js';

export type DemoAgent =
  'triage' | 'planner' | 'reproducer' | 'code-agent' | 'code-fixer' | 'pr-generator';

/** How each agent's system prompt (agents/*.md) introduces it. */
const INTRODUCTIONS: readonly [DemoAgent, RegExp][] = [
  ['triage', /You are the triage agent of Autofix/],
  ['planner', /You are the planner agent of Autofix/],
  ['reproducer', /You are the reproducer agent of Autofix/],
  ['code-agent', /You are the code agent of Autofix/],
  ['code-fixer', /You are the code fixer of Autofix/],
  ['pr-generator', /You are the pull-request writer of Autofix/],
];

/** The agent a chat request comes from, by its system prompt; undefined when none matches. */
export function agentOf(request: RecordedRequest): DemoAgent | undefined {
  const system = request.body.messages
    .filter((m) => m.role === 'system' || m.role === 'developer')
    .map((m) => m.content)
    .join('\n');
  return INTRODUCTIONS.find(([, intro]) => intro.test(system))?.[0];
}

const ANSWERS: Record<DemoAgent, string> = {
  triage: JSON.stringify(DEMO_TRIAGE),
  planner: JSON.stringify(DEMO_PLAN),
  reproducer: JSON.stringify(DEMO_REPRODUCTION),
  'code-agent': DEMO_FIRST_DIFF,
  'code-fixer': DEMO_REPAIR_DIFF,
  'pr-generator': JSON.stringify(DEMO_PR_SUMMARY),
};

/** A short pause per answer, so the progress reads like a model at work (and stays fast). */
const THINKING_MS = 150;

export function demoAnswer(request: RecordedRequest): StaticReply {
  const agent = agentOf(request);
  if (!agent) {
    return {
      status: 400,
      body: {
        error: {
          message: 'autofix demo: the scripted model answers only the agents of agents/*.md',
          type: 'invalid_request_error',
        },
      },
    };
  }
  return { content: ANSWERS[agent], model: 'autofix-demo-scripted', delayMs: THINKING_MS };
}

/**
 * The tests the code fixer was told the first diff broke (the failure brief's list), for the
 * demo's closing words; empty when no fixer ran or the brief names none.
 */
export function testsBrokenBeforeRepair(llm: ScriptedLlmServer): string[] {
  const fixer = llm.chatRequests().find((r) => agentOf(r) === 'code-fixer');
  const prompt = fixer?.body.messages.map((m) => m.content).join('\n') ?? '';
  const list = /These fail with your change[^\n]*\n((?:- [^\n]+\n)+)/.exec(prompt)?.[1] ?? '';
  return list
    .split('\n')
    .filter(Boolean)
    .map((line) => line.slice(2).trim());
}

/** The demo's model: loopback only, any key accepted (none of the user's is ever sent here). */
export function startDemoLlm(): Promise<ScriptedLlmServer> {
  return startScriptedLlmServer({ respond: demoAnswer, models: ['autofix-demo-scripted'] });
}
