/**
 * Tool calls as every OpenAI-compatible server sends them, made one shape. Servers differ:
 * Ollama's native shape has no `id` or `type` and `arguments` as an object; llama.cpp and LM
 * Studio may send arguments with a fence or trailing text; models without a tool-call template
 * (or servers without a parser for it) write the call into `content` — Hermes/Qwen's
 * `<tool_call>{…}</tool_call>`, Mistral's `[TOOL_CALLS] […]`, or plain JSON — and
 * `finish_reason` may be `tool_calls`, `tool_call`, `stop` or null whatever happened. Calls
 * found in `content` are taken only for a tool the request offered. Pure.
 */
import { extractJson } from '../text/extract-json.js';

export interface ToolCall {
  id: string;
  name: string;
  /** The arguments as JSON text (`{}` when none); may not parse: the runner says so. */
  arguments: string;
}

/** The assistant message as the server sent it (after the SDK's parse). */
export interface RawToolMessage {
  content?: unknown;
  tool_calls?: unknown;
  function_call?: unknown;
}

export interface NormalizedToolCalls {
  calls: ToolCall[];
  /** The message's text without the calls that were written into it. */
  content: string;
  /** Which quirks were met (for the transcript and tests). */
  quirks: string[];
}

const record = (v: unknown): Record<string, unknown> | undefined =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

const FENCED = /^```[A-Za-z0-9_-]*\s*\n?([\s\S]*?)\n?```$/;

/** Arguments as canonical JSON text when they are JSON (maybe fenced, maybe with prose after). */
function argumentsText(raw: unknown, quirks: Set<string>): string {
  if (raw === undefined || raw === null) return '{}';
  if (typeof raw !== 'string') {
    quirks.add('arguments-as-object');
    return JSON.stringify(raw);
  }
  const trimmed = raw.trim();
  if (trimmed === '') return '{}';
  try {
    return JSON.stringify(JSON.parse(trimmed));
  } catch {
    const unfenced = FENCED.exec(trimmed)?.[1] ?? trimmed;
    const found = extractJson(unfenced);
    if (found.ok && record(found.value)) {
      quirks.add('arguments-with-text');
      return JSON.stringify(found.value);
    }
    return raw;
  }
}

interface CallShape {
  id?: unknown;
  name?: unknown;
  arguments?: unknown;
}

/** `{id, type, function: {name, arguments}}`, or a flat `{name, arguments|parameters}`. */
function shapeOf(value: unknown): CallShape | undefined {
  const v = record(value);
  if (!v) return undefined;
  const fn = record(v.function);
  if (fn && typeof fn.name === 'string')
    return { id: v.id, name: fn.name, arguments: fn.arguments ?? fn.parameters };
  if (typeof v.name === 'string')
    return { id: v.id, name: v.name, arguments: v.arguments ?? v.parameters ?? v.args };
  return undefined;
}

function toCalls(shapes: CallShape[], seed: string, quirks: Set<string>): ToolCall[] {
  const seen = new Set<string>();
  return shapes.map((s, i) => {
    let id = typeof s.id === 'string' && s.id.trim() !== '' ? s.id : '';
    if (id === '' || seen.has(id)) {
      quirks.add('missing-id');
      id = `call_${seed}_${i + 1}`;
    }
    seen.add(id);
    return { id, name: String(s.name), arguments: argumentsText(s.arguments, quirks) };
  });
}

/** Calls written into the text: tagged blocks, Mistral's marker, or the whole text as JSON. */
function callsInText(
  text: string,
  known: ReadonlySet<string>,
): { shapes: CallShape[]; rest: string; quirk: string } | undefined {
  const offered = (s: CallShape | undefined): s is CallShape =>
    s !== undefined && typeof s.name === 'string' && known.has(s.name);
  const listOf = (v: unknown): CallShape[] => {
    const r = record(v);
    const items = Array.isArray(v) ? v : Array.isArray(r?.tool_calls) ? r.tool_calls : [v];
    return (items as unknown[]).map(shapeOf).filter(offered);
  };
  const tagged = [...text.matchAll(/<tool_call>\s*([\s\S]*?)\s*<\/tool_call>/g)];
  if (tagged.length > 0) {
    const shapes = tagged.flatMap((m) => {
      const found = extractJson(m[1]!);
      return found.ok ? listOf(found.value) : [];
    });
    const rest = text.replace(/<tool_call>[\s\S]*?<\/tool_call>/g, '').trim();
    if (shapes.length > 0) return { shapes, rest, quirk: 'calls-in-content:tagged' };
  }
  const marker = text.indexOf('[TOOL_CALLS]');
  if (marker >= 0) {
    const found = extractJson(text.slice(marker + '[TOOL_CALLS]'.length));
    const shapes = found.ok ? listOf(found.value) : [];
    if (shapes.length > 0)
      return { shapes, rest: text.slice(0, marker).trim(), quirk: 'calls-in-content:mistral' };
  }
  const whole = extractJson(text);
  if (whole.ok) {
    const shapes = listOf(whole.value);
    if (shapes.length > 0) return { shapes, rest: '', quirk: 'calls-in-content:json' };
  }
  return undefined;
}

export function normalizeToolCalls(
  message: RawToolMessage,
  known: ReadonlySet<string>,
  seed: string,
): NormalizedToolCalls {
  const quirks = new Set<string>();
  const content = typeof message.content === 'string' ? message.content : '';
  const listed = Array.isArray(message.tool_calls)
    ? message.tool_calls.map(shapeOf).filter((s): s is CallShape => s !== undefined)
    : [];
  const legacy = shapeOf(message.function_call);
  if (listed.length === 0 && legacy) {
    quirks.add('function-call');
    listed.push(legacy);
  }
  if (listed.length > 0)
    return { calls: toCalls(listed, seed, quirks), content, quirks: [...quirks] };
  const written = known.size > 0 ? callsInText(content, known) : undefined;
  if (!written) return { calls: [], content, quirks: [] };
  quirks.add(written.quirk);
  return {
    calls: toCalls(written.shapes, seed, quirks),
    content: written.rest,
    quirks: [...quirks],
  };
}
