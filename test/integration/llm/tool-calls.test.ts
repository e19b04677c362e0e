/**
 * Tool calling through the real `openai` SDK against a scripted server that answers in each
 * server's own shape: what the request carries (tools, the conversation's calls and answers)
 * and what the client makes of each answer.
 */
import { createRedactor } from '../../../src/artifacts/redact.js';
import { createLlmClient } from '../../../src/llm/create-llm-client.js';
import type { ChatMessage, ToolSpec } from '../../../src/llm/types.js';
import { startFakeLlmServer, type FakeLlmServer } from '../../helpers/fake-llm-server.js';

const TOOLS: ToolSpec[] = [
  {
    name: 'read_file',
    description: 'Read a file.',
    parameters: {
      type: 'object',
      properties: { path: { type: 'string' } },
      required: ['path'],
      additionalProperties: false,
    },
  },
];
const ASK: ChatMessage[] = [
  { role: 'system', content: 'You fix bugs.' },
  { role: 'user', content: 'add() is wrong' },
];

let llm: FakeLlmServer;
beforeEach(async () => {
  llm = await startFakeLlmServer();
});
afterEach(async () => {
  await llm.close();
});
const client = () => createLlmClient({ baseUrl: llm.baseUrl, apiKey: 'sk-tool-calls-0123456789' });

describe('tool calls', () => {
  it('sends the tools in the OpenAI shape and reads an OpenAI answer', async () => {
    llm.enqueue({
      content: '',
      toolCalls: [{ id: 'call_1', name: 'read_file', arguments: { path: 'a.js' } }],
    });
    const got = await client().chat({
      model: 'm',
      messages: ASK,
      tools: TOOLS,
      toolChoice: 'auto',
    });
    expect(got.toolCalls).toEqual([
      { id: 'call_1', name: 'read_file', arguments: '{"path":"a.js"}' },
    ]);
    expect(got.finishReason).toBe('tool_calls');
    const body = llm.chatRequests()[0]!.body;
    expect(body.tools).toEqual([{ type: 'function', function: TOOLS[0] }]);
    expect(body.tool_choice).toBe('auto');
  });

  it('sends no tools at all to a call that offers none (one-shot requests stay as they were)', async () => {
    llm.enqueue('plain answer');
    const got = await client().chat({ model: 'm', messages: ASK });
    expect(got).toMatchObject({ text: 'plain answer', toolCalls: [] });
    expect(llm.chatRequests()[0]!.body).not.toHaveProperty('tools');
    expect(llm.chatRequests()[0]!.body).not.toHaveProperty('tool_choice');
  });

  it("reads Ollama's shape: no id or type, arguments as an object, finish_reason stop", async () => {
    llm.enqueue({
      content: '',
      finishReason: 'stop',
      message: { tool_calls: [{ function: { name: 'read_file', arguments: { path: 'b.js' } } }] },
    });
    const got = await client().chat({ model: 'm', messages: ASK, tools: TOOLS });
    expect(got.toolCalls).toEqual([
      { id: 'call_1_1', name: 'read_file', arguments: '{"path":"b.js"}' },
    ]);
    expect(got.toolCallQuirks).toEqual(['missing-id', 'arguments-as-object']);
  });

  it('reads a call a model wrote into its text (Hermes template, no server parser, no finish_reason)', async () => {
    llm.enqueue({
      content:
        'Reading it.\n<tool_call>\n{"name": "read_file", "arguments": {"path": "c.js"}}\n</tool_call>',
      message: { finish_reason: null },
    });
    const got = await client().chat({ model: 'm', messages: ASK, tools: TOOLS });
    expect(got.toolCalls.map((c) => c.arguments)).toEqual(['{"path":"c.js"}']);
    expect(got.text).toBe('Reading it.');
  });

  it('sends the conversation back with the calls and their answers, each answer by its id', async () => {
    llm.enqueue('done');
    await client().chat({
      model: 'm',
      tools: TOOLS,
      messages: [
        ...ASK,
        {
          role: 'assistant',
          content: '',
          toolCalls: [{ id: 'call_7', name: 'read_file', arguments: '{"path":"a.js"}' }],
        },
        {
          role: 'tool',
          toolCallId: 'call_7',
          name: 'read_file',
          content: '1| export const a = 1;',
        },
      ],
    });
    expect(llm.chatRequests()[0]!.body.messages.slice(2)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_7',
            type: 'function',
            function: { name: 'read_file', arguments: '{"path":"a.js"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_7', content: '1| export const a = 1;' },
    ]);
  });

  it("masks the run's secrets in a tool's answer before it is sent", async () => {
    const secret = 'whsec-tool-answer-secret-8c1d';
    llm.enqueue('done');
    await createLlmClient({ baseUrl: llm.baseUrl, redact: createRedactor([secret]) }).chat({
      model: 'm',
      tools: TOOLS,
      messages: [
        ...ASK,
        {
          role: 'assistant',
          content: '',
          toolCalls: [{ id: 'c', name: 'read_file', arguments: '{}' }],
        },
        { role: 'tool', toolCallId: 'c', name: 'read_file', content: `KEY=${secret}` },
      ],
    });
    expect(llm.chatRequests()[0]!.rawBody).not.toContain(secret);
  });
});
