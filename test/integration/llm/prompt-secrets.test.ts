/**
 * Redaction on the way in: whatever carried a run's secret into a prompt (a repository file, a
 * log, the issue), the model is never sent it, in any encoding; the operator is told which file
 * it stood in. A test fixture that only looks like a token is left as it is (the model edits it).
 */
import { createRedactor } from '../../../src/artifacts/redact.js';
import { createLlmClient } from '../../../src/llm/create-llm-client.js';
import { maskPrompt } from '../../../src/llm/mask-prompt.js';
import type { Logger } from '../../../src/logger.js';
import { startFakeLlmServer, type FakeLlmServer } from '../../helpers/fake-llm-server.js';

const API_KEY = 'sk-prompt-secrets-key-0123456789ab';
const WEBHOOK_SECRET = 'whsec-prompt-secrets-5f2c1e9d8a7b';
const FIXTURE_TOKEN = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';

let llm: FakeLlmServer;
beforeEach(async () => {
  llm = await startFakeLlmServer();
});
afterEach(async () => {
  await llm.close();
});

function capturingLog(): { log: Logger; warnings: { obj: unknown; msg?: string }[] } {
  const warnings: { obj: unknown; msg?: string }[] = [];
  const noop = () => undefined;
  const log: Logger = {
    debug: noop,
    info: noop,
    warn: (obj: unknown, msg?: string) => void warnings.push({ obj, msg }),
    error: noop,
    child: () => log,
  };
  return { log, warnings };
}

const prompt = (file: string) => [
  { role: 'system' as const, content: 'You fix bugs.' },
  {
    role: 'user' as const,
    content: `Issue: add() is wrong.\n\n### src/add.js (rank 1)\n\`\`\`js\nexport const add = (a, b) => a - b;\n\`\`\`\n\n### test/env.test.js (rank 2)\n\`\`\`js\n${file}\n\`\`\``,
  },
];

describe('prompts are masked before they are sent', () => {
  it.each([
    ['as written', WEBHOOK_SECRET],
    ['base64-encoded', Buffer.from(`WEBHOOK_SECRET=${WEBHOOK_SECRET}\n`).toString('base64')],
    ['hex-encoded', Buffer.from(WEBHOOK_SECRET).toString('hex')],
    ['URL-encoded', encodeURIComponent(`x=${WEBHOOK_SECRET}&y=1`).replace(/-/g, '%2D')],
    ['the API key itself', API_KEY],
  ])('a secret %s never reaches the model, and the file it was in is named', async (_, form) => {
    const { log, warnings } = capturingLog();
    const redact = createRedactor([WEBHOOK_SECRET]);
    const client = createLlmClient({ baseUrl: llm.baseUrl, apiKey: API_KEY, redact, log });
    llm.enqueue('ok');
    await client.chat({ model: 'm', stage: 'code', messages: prompt(`PATH=/bin\n${form}\n`) });
    const sent = JSON.stringify(llm.chatRequests()[0]!.body);
    expect(sent).not.toContain(WEBHOOK_SECRET);
    expect(sent).not.toContain(API_KEY);
    expect(sent).not.toContain(form);
    expect(sent).toContain('export const add = (a, b) => a - b;');
    const event = warnings.find((w) => (w.obj as { security?: string }).security);
    expect(event?.obj).toMatchObject({
      security: 'secret-in-prompt',
      stage: 'code',
      hits: [{ role: 'user', source: 'test/env.test.js' }],
    });
    expect(event?.msg).toContain('test/env.test.js');
    expect(JSON.stringify(warnings)).not.toContain(WEBHOOK_SECRET);
  });

  it('leaves token-shaped repository content alone and reports nothing', async () => {
    const { log, warnings } = capturingLog();
    const redact = createRedactor([WEBHOOK_SECRET]);
    const client = createLlmClient({ baseUrl: llm.baseUrl, apiKey: API_KEY, redact, log });
    llm.enqueue('ok');
    const fixture = `const token = '${FIXTURE_TOKEN}'; // a fake for the parser test`;
    await client.chat({ model: 'm', stage: 'code', messages: prompt(fixture) });
    expect(JSON.stringify(llm.chatRequests()[0]!.body)).toContain(FIXTURE_TOKEN);
    expect(warnings).toEqual([]);
  });

  it('a secret registered during the run (an installation token) is masked from then on', async () => {
    const redact = createRedactor([]);
    const client = createLlmClient({ baseUrl: llm.baseUrl, redact });
    const token = 'ghs_installationTokenForThisRun0123456789';
    redact.add(token);
    llm.enqueue('ok');
    await client.chat({
      model: 'm',
      messages: prompt(`remote: https://x-access-token:${token}@h/r`),
    });
    expect(JSON.stringify(llm.chatRequests()[0]!.body)).not.toContain(token);
  });
});

describe('maskPrompt', () => {
  it('names each line that held a secret by the nearest file heading or quoted source', () => {
    const mask = createRedactor(['s3cr3t-value-abcdef']).known;
    const { messages, hits } = maskPrompt(
      [
        {
          role: 'user',
          content:
            'intro\n### a.js\nok\ns3cr3t-value-abcdef\n<untrusted-data source="issue" id="1">\ns3cr3t-value-abcdef',
        },
      ],
      mask,
    );
    expect(messages[0]!.content).not.toContain('s3cr3t-value-abcdef');
    expect(hits).toEqual([
      { role: 'user', source: 'a.js', line: 4 },
      { role: 'user', source: 'issue', line: 6 },
    ]);
  });

  it('hands back the same messages when nothing was masked', () => {
    const messages = [{ role: 'user' as const, content: 'nothing here' }];
    expect(maskPrompt(messages, createRedactor(['s3cr3t-value-abcdef']).known)).toEqual({
      messages,
      hits: [],
    });
  });
});
