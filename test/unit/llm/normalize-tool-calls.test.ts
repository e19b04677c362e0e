/**
 * Tool calls as the servers really send them (shapes from their documentation and bug reports):
 * OpenAI, vLLM, Ollama's OpenAI endpoint and its native shape, llama.cpp and LM Studio with
 * arguments wrapped in prose or a fence, models that write the call into `content`.
 */
import { normalizeToolCalls } from '../../../src/llm/normalize-tool-calls.js';

const KNOWN = new Set(['read_file', 'search']);
const norm = (message: Parameters<typeof normalizeToolCalls>[0]) =>
  normalizeToolCalls(message, KNOWN, 'r1');

describe('normalizeToolCalls', () => {
  it('takes OpenAI and vLLM calls as they are, parallel ones in order', () => {
    const out = norm({
      content: null,
      tool_calls: [
        {
          id: 'call_abc',
          type: 'function',
          function: { name: 'read_file', arguments: '{"path":"src/a.js"}' },
        },
        {
          id: 'chatcmpl-tool-9f2',
          type: 'function',
          function: { name: 'search', arguments: '{"pattern": "add("}' },
        },
      ],
    });
    expect(out).toEqual({
      calls: [
        { id: 'call_abc', name: 'read_file', arguments: '{"path":"src/a.js"}' },
        { id: 'chatcmpl-tool-9f2', name: 'search', arguments: '{"pattern":"add("}' },
      ],
      content: '',
      quirks: [],
    });
  });

  it("gives Ollama's calls (no id, no type, arguments as an object) ids and JSON text", () => {
    const out = norm({
      content: '',
      tool_calls: [
        { function: { name: 'read_file', arguments: { path: 'src/a.js' } } },
        { function: { name: 'read_file', arguments: { path: 'src/b.js' } } },
      ],
    });
    expect(out.calls).toEqual([
      { id: 'call_r1_1', name: 'read_file', arguments: '{"path":"src/a.js"}' },
      { id: 'call_r1_2', name: 'read_file', arguments: '{"path":"src/b.js"}' },
    ]);
    expect(out.quirks).toEqual(['missing-id', 'arguments-as-object']);
  });

  it('reads arguments sent in a fence or followed by prose, and keeps what is not JSON', () => {
    const out = norm({
      tool_calls: [
        { id: 'a', function: { name: 'search', arguments: '```json\n{"pattern":"x"}\n```' } },
        { id: 'b', function: { name: 'search', arguments: '{"pattern":"y"} I will now search.' } },
        { id: 'c', function: { name: 'search', arguments: 'pattern=z' } },
        { id: 'd', function: { name: 'read_file', arguments: '' } },
      ],
    });
    expect(out.calls.map((c) => c.arguments)).toEqual([
      '{"pattern":"x"}',
      '{"pattern":"y"}',
      'pattern=z',
      '{}',
    ]);
    expect(out.quirks).toEqual(['arguments-with-text']);
  });

  it('gives duplicated ids new ones (the tool answers must be told apart)', () => {
    const call = { id: 'call_0', function: { name: 'search', arguments: '{}' } };
    expect(norm({ tool_calls: [call, call] }).calls.map((c) => c.id)).toEqual([
      'call_0',
      'call_r1_2',
    ]);
  });

  it('takes the legacy function_call shape', () => {
    const out = norm({ function_call: { name: 'read_file', arguments: '{"path":"a"}' } });
    expect(out.calls).toEqual([{ id: 'call_r1_1', name: 'read_file', arguments: '{"path":"a"}' }]);
  });

  it('finds Hermes/Qwen calls written into the content, and keeps the prose around them', () => {
    const out = norm({
      content:
        'Let me look.\n<tool_call>\n{"name": "read_file", "arguments": {"path": "src/a.js"}}\n</tool_call>\n<tool_call>{"name": "search", "arguments": {"pattern": "add"}}</tool_call>',
    });
    expect(out.calls.map((c) => [c.name, c.arguments])).toEqual([
      ['read_file', '{"path":"src/a.js"}'],
      ['search', '{"pattern":"add"}'],
    ]);
    expect(out.content).toBe('Let me look.');
    expect(out.quirks).toContain('calls-in-content:tagged');
  });

  it("finds Mistral's [TOOL_CALLS] and Llama's plain JSON with `parameters`", () => {
    expect(
      norm({ content: '[TOOL_CALLS] [{"name": "search", "arguments": {"pattern": "x"}}]' }).calls,
    ).toEqual([{ id: 'call_r1_1', name: 'search', arguments: '{"pattern":"x"}' }]);
    expect(
      norm({ content: '```json\n{"name": "read_file", "parameters": {"path": "a"}}\n```' }).calls,
    ).toEqual([{ id: 'call_r1_1', name: 'read_file', arguments: '{"path":"a"}' }]);
  });

  it('takes no call from the content for a tool that was not offered, nor from an ordinary answer', () => {
    expect(norm({ content: '{"name": "rm_rf", "arguments": {}}' }).calls).toEqual([]);
    expect(norm({ content: '{"risk": "LOW", "summary": "x"}' }).calls).toEqual([]);
    expect(norm({ content: '--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n' }).calls).toEqual([]);
    expect(
      normalizeToolCalls({ content: '{"name":"search","arguments":{}}' }, new Set(), 's'),
    ).toEqual({ calls: [], content: '{"name":"search","arguments":{}}', quirks: [] });
  });
});
