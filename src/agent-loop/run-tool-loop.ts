/**
 * The code agent's tool loop: the model reads, searches, runs tests and proposes edits through
 * the tools until it calls `finish`, bounded by turns, calls, the tools' total output, tokens and
 * wall time. Every tool answer is untrusted data, quoted like issue text; a failing call is an
 * answer, never a crash; a model repeating the same call (nothing edited since) is told so, then
 * stopped. What happened is kept step by step for the account a maintainer reads.
 */
import { quoteUntrusted } from '../llm/quote-untrusted.js';
import type { LlmClient } from '../llm/create-llm-client.js';
import type { ChatMessage, ToolCall } from '../llm/types.js';
import { callTool } from '../tools/call-tool.js';
import { toolSpecs } from '../tools/registry.js';
import type { Tool, ToolOutcome } from '../tools/tool.js';
import type { ToolWorkspace } from '../tools/tool-workspace.js';
import { callKey } from './call-key.js';
import { DEFAULT_LOOP_LIMITS, type LoopLimits } from './loop-limits.js';
import type { LoopEnd, LoopStep } from './loop-step.js';

export interface ToolLoopInput {
  model: string;
  stage: string;
  /** The conversation so far: the instructions and the task (a repair round continues one). */
  messages: ChatMessage[];
  tools: readonly Tool[];
  limits?: Partial<LoopLimits>;
  temperature?: number;
}

export interface ToolLoopPorts {
  llm: LlmClient;
  workspace: ToolWorkspace;
  signal?: AbortSignal;
  now?: () => number;
  /** Each step as it happens (progress, status comment). */
  onStep?: (step: LoopStep) => void;
}

export interface ToolLoopResult {
  end: LoopEnd;
  finish?: { summary: string; notes?: string };
  steps: LoopStep[];
  /** The whole conversation, for the run's artifacts (and the next repair round). */
  messages: ChatMessage[];
  /** Edits that the engine applied. */
  edits: number;
  /** Time spent in the tools themselves, ms (the loop's own overhead is what remains). */
  toolMs: number;
  tokens: number;
}

const NUDGE =
  'Use the tools: read and search as you need, apply your change with propose_edit, then call finish.';

interface LoopState {
  steps: LoopStep[];
  answered: Map<string, number>;
  toolChars: number;
  edits: number;
  toolMs: number;
  idle: number;
}

export async function runToolLoop(
  input: ToolLoopInput,
  ports: ToolLoopPorts,
): Promise<ToolLoopResult> {
  const limits = { ...DEFAULT_LOOP_LIMITS, ...input.limits };
  const now = ports.now ?? Date.now;
  const started = now();
  const tokensBefore = ports.llm.usage.totals().totalTokens;
  const messages = [...input.messages];
  const specs = toolSpecs(input.tools);
  const state: LoopState = {
    steps: [],
    answered: new Map(),
    toolChars: 0,
    edits: 0,
    toolMs: 0,
    idle: 0,
  };
  const result = (end: LoopEnd, finish?: ToolLoopResult['finish']): ToolLoopResult => ({
    end,
    ...(finish ? { finish } : {}),
    steps: state.steps,
    messages,
    edits: state.edits,
    toolMs: state.toolMs,
    tokens: ports.llm.usage.totals().totalTokens - tokensBefore,
  });
  for (let turn = 1; ; turn++) {
    const over = overLimit(
      limits,
      state,
      turn,
      now() - started,
      ports.llm.usage.totals().totalTokens - tokensBefore,
    );
    if (ports.signal?.aborted) return result('aborted');
    if (over) return result(over);
    const reply = await ports.llm.chat({
      model: input.model,
      stage: input.stage,
      messages,
      tools: specs,
      toolChoice: 'auto',
      ...(input.temperature === undefined ? {} : { temperature: input.temperature }),
      ...(ports.signal ? { signal: ports.signal } : {}),
    });
    messages.push({
      role: 'assistant',
      content: reply.text,
      ...(reply.toolCalls.length > 0 ? { toolCalls: reply.toolCalls } : {}),
    });
    if (reply.toolCalls.length === 0) {
      state.idle += 1;
      if (state.idle >= limits.maxIdleTurns) return result('no-tool-calls');
      messages.push({ role: 'user', content: NUDGE });
      continue;
    }
    state.idle = 0;
    const ended = await answerCalls(reply.toolCalls, turn, {
      input,
      ports,
      limits,
      state,
      messages,
      now,
    });
    if (ended) return result(ended.end, ended.finish);
  }
}

function overLimit(
  limits: LoopLimits,
  state: LoopState,
  turn: number,
  elapsed: number,
  tokens: number,
): LoopEnd | undefined {
  if (turn > limits.maxTurns) return 'turns';
  if (state.steps.length >= limits.maxCalls) return 'calls';
  if (state.toolChars >= limits.maxToolChars) return 'tool-output';
  if (limits.maxTokens !== undefined && tokens >= limits.maxTokens) return 'tokens';
  if (elapsed >= limits.maxMs) return 'time';
  return undefined;
}

interface TurnContext {
  input: ToolLoopInput;
  ports: ToolLoopPorts;
  limits: LoopLimits;
  state: LoopState;
  messages: ChatMessage[];
  now: () => number;
}

/** Answers each call of one model turn, in order; says when the loop ends. */
async function answerCalls(
  calls: ToolCall[],
  turn: number,
  ctx: TurnContext,
): Promise<{ end: LoopEnd; finish?: ToolLoopResult['finish'] } | undefined> {
  let ended: { end: LoopEnd; finish?: ToolLoopResult['finish'] } | undefined;
  for (const call of calls) {
    // Every call gets an answer (the API requires one per id), even past the end.
    const outcome = ended ? skipped(call) : await answerOne(call, turn, ctx);
    ctx.messages.push({
      role: 'tool',
      toolCallId: call.id,
      name: call.name,
      content: quoteUntrusted(`tool:${call.name}`, outcome.text),
    });
    ctx.state.toolChars += outcome.text.length;
    if (!ended && outcome.finish) ended = { end: 'finish', finish: outcome.finish };
    if (
      !ended &&
      (ctx.state.answered.get(callKey(call.name, call.arguments)) ?? 0) > ctx.limits.maxRepeats
    )
      ended = { end: 'repeat' };
  }
  return ended;
}

const skipped = (call: ToolCall): ToolOutcome => ({
  text: `not run: the loop ended before ${call.name}`,
  summary: `${call.name}: not run`,
  error: true,
});

async function answerOne(call: ToolCall, turn: number, ctx: TurnContext): Promise<ToolOutcome> {
  const key = callKey(call.name, call.arguments);
  const times = (ctx.state.answered.get(key) ?? 0) + 1;
  ctx.state.answered.set(key, times);
  if (times > 1 && call.name !== 'run_tests')
    return {
      text: `You already called ${call.name} with these arguments and nothing has changed since; the answer is the same. Use what you have, or change something first.`,
      summary: `${call.name}: repeated`,
      error: true,
    };
  const started = ctx.now();
  const outcome = await callTool(call, ctx.ports.workspace, ctx.input.tools);
  const step: LoopStep = {
    turn,
    tool: call.name,
    summary: outcome.summary,
    error: outcome.error === true,
    ms: ctx.now() - started,
  };
  ctx.state.toolMs += step.ms;
  ctx.state.steps.push(step);
  ctx.ports.onStep?.(step);
  if (call.name === 'propose_edit' && !outcome.error) {
    ctx.state.edits += 1;
    // An edit changes what reads and searches answer: the same call may be asked again.
    ctx.state.answered.clear();
  }
  return outcome;
}
