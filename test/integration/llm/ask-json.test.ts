import { isAutofixError, type AutofixError } from '../../../src/errors.js';
import { askJson } from '../../../src/llm/ask-json.js';
import { createLlmClient } from '../../../src/llm/create-llm-client.js';
import { fixPlanSchema, triageResultSchema } from '../../../src/llm/schemas.js';
import { startFakeLlmServer, type FakeLlmServer } from '../../helpers/fake-llm-server.js';

const triage = {
  risk: 'LOW',
  classification: 'fix',
  affected_files: ['src/a.ts'],
  summary: 'Fix a.',
};
const request = {
  model: 'gpt-4o-mini',
  stage: 'triage',
  messages: [
    { role: 'system' as const, content: 'You triage.' },
    { role: 'user' as const, content: 'Issue …' },
  ],
};

let llm: FakeLlmServer;
beforeEach(async () => {
  llm = await startFakeLlmServer();
});
afterEach(async () => {
  await llm.close();
});
const client = () => createLlmClient({ baseUrl: llm.baseUrl, apiKey: 'sk-test-key-123456' });

describe('askJson', () => {
  it('accepts JSON wrapped in a fence and prose without a re-ask', async () => {
    llm.enqueue(`Here you go:\n\`\`\`json\n${JSON.stringify(triage)}\n\`\`\``);
    const out = await askJson(client(), request, triageResultSchema, 'TriageResult');
    expect(out).toMatchObject({ data: triage, reasked: false });
    expect(llm.chatRequests()).toHaveLength(1);
  });

  it('re-asks once with the parse error in the same conversation, then succeeds', async () => {
    llm.enqueue('{"risk": "LOW", "classification": ', JSON.stringify(triage));
    const out = await askJson(client(), request, triageResultSchema, 'TriageResult');
    expect(out.reasked).toBe(true);
    expect(out.data).toEqual(triage);
    expect(out.calls).toHaveLength(2);
    const second = llm.chatRequests()[1]!.body.messages;
    expect(second.slice(0, 2)).toEqual(request.messages);
    expect(second[2]).toEqual({ role: 'assistant', content: '{"risk": "LOW", "classification": ' });
    expect(second[3]?.role).toBe('user');
    expect(second[3]?.content).toMatch(
      /not a valid TriageResult[\s\S]*not JSON: the JSON starting at character 0 is not closed/,
    );
  });

  it('re-asks when the server says the reply was cut off, even if its JSON parses', async () => {
    llm.enqueue(
      { content: JSON.stringify(triage), finishReason: 'length' },
      JSON.stringify(triage),
    );
    const out = await askJson(client(), request, triageResultSchema, 'TriageResult');
    expect(out.reasked).toBe(true);
    expect(llm.chatRequests()[1]!.body.messages[3]?.content).toContain(
      'the reply was cut off at the output limit (finish_reason "length"); answer shorter',
    );
  });

  it('feeds schema errors back by field', async () => {
    const badPlan = {
      branch_name: 'fix/1-x',
      commit_type: 'oops',
      scope: 'x',
      plan_steps: [],
      file_changes: [],
    };
    const goodPlan = {
      branch_name: 'fix/1-x',
      commit_type: 'fix',
      scope: 'x',
      plan_steps: [{ id: '1', description: 'd' }],
      file_changes: [{ path: 'a.ts', operation: 'MODIFY' }],
      validation_commands: [],
    };
    llm.enqueue(JSON.stringify(badPlan), JSON.stringify(goodPlan));
    const out = await askJson(client(), { ...request, stage: 'plan' }, fixPlanSchema, 'FixPlan');
    expect(out.data).toEqual(goodPlan);
    const reask = llm.chatRequests()[1]!.body.messages[3]?.content ?? '';
    expect(reask).toContain('- commit_type: Invalid option');
    expect(reask).toContain('- plan_steps: needs at least one step');
    expect(reask).toContain('- file_changes: needs at least one file change');
  });

  it('gives up with LLM_OUTPUT_INVALID after the second invalid reply', async () => {
    llm.enqueue('Here is my triage: risk is low.', '{"risk": "EXTREME"}');
    let caught: unknown;
    try {
      await askJson(client(), request, triageResultSchema, 'TriageResult');
    } catch (err) {
      caught = err;
    }
    expect(isAutofixError(caught)).toBe(true);
    const err = caught as AutofixError;
    expect(err.code).toBe('LLM_OUTPUT_INVALID');
    expect(err.message).toMatch(
      /triage reply is not a valid TriageResult, even after one re-ask: risk: Invalid option/,
    );
    const details = err.details as { schema: string; errors: string[]; firstErrors: string[] };
    expect(details.schema).toBe('TriageResult');
    expect(details.firstErrors).toEqual(['not JSON: no JSON object found in the reply']);
    expect(details.errors.some((e) => e.startsWith('risk: '))).toBe(true);
    expect(details.errors.some((e) => e.startsWith('summary: '))).toBe(true);
    expect(llm.chatRequests()).toHaveLength(2);
  });

  it('does not re-ask a model that declined: it says so', async () => {
    llm.enqueue('I cannot do that.');
    const err = await askJson(client(), request, triageResultSchema, 'TriageResult').catch(
      (e: unknown) => e as AutofixError,
    );
    expect(isAutofixError(err)).toBe(true);
    expect((err as AutofixError).code).toBe('LLM_OUTPUT_INVALID');
    expect((err as AutofixError).message).toBe(
      'The model declined to give its triage answer: "I cannot do that."',
    );
    expect(llm.chatRequests()).toHaveLength(1);
  });
});
