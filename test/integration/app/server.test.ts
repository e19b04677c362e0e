import { labeledPayload } from '../../helpers/webhooks.js';
import { startHarness, waitFor, type Harness } from './harness.js';
import { WAIT_MS } from '../../helpers/deadlines.js';

const basic = (user: string, password: string): string =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describe('operations endpoints', () => {
  let h: Harness;
  afterEach(async () => h?.close());

  it('serves /healthz and /metrics with jobs by stage and outcome and stage durations', async () => {
    h = await startHarness();
    expect((await fetch(`${h.app.url}/healthz`)).status).toBe(200);
    await h.send('issues', labeledPayload({ issueNumber: 31 }));
    // The run has ended once the 🚀 reaction is there; metrics are counted before it.
    await waitFor(
      () => h.github.calls('POST', /\/issues\/31\/reactions$/)[1],
      WAIT_MS,
      'the end of the run',
    );
    h.metrics.llmTokens.inc({ stage: 'plan', model: 'gpt-test', kind: 'prompt' }, 321);
    const res = await fetch(`${h.app.url}/metrics`);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain('autofix_jobs_total{stage="pr",outcome="completed"} 1');
    expect(text).toMatch(
      /autofix_stage_duration_seconds_count\{stage="triage",outcome="completed"\} 1/,
    );
    expect(text).toContain(
      'autofix_llm_tokens_total{stage="plan",model="gpt-test",kind="prompt"} 321',
    );
    expect(text).toContain(
      'autofix_webhook_deliveries_total{event="issues.labeled",result="started"} 1',
    );
  });

  it('puts Bull Board behind basic auth with ADMIN_PASSWORD', async () => {
    h = await startHarness({ workers: false, adminPassword: 'correct horse' });
    expect((await fetch(`${h.app.url}/admin/queues`)).status).toBe(401);
    const wrong = await fetch(`${h.app.url}/admin/queues`, {
      headers: { authorization: basic('admin', 'nope') },
    });
    expect(wrong.status).toBe(401);
    const page = await fetch(`${h.app.url}/admin/queues`, {
      headers: { authorization: basic('admin', 'correct horse') },
    });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<!DOCTYPE html>');
    const api = await fetch(`${h.app.url}/admin/queues/api/queues`, {
      headers: { authorization: basic('admin', 'correct horse') },
    });
    expect(api.status).toBe(200);
    const names = ((await api.json()) as { queues: { name: string }[] }).queues.map((q) => q.name);
    expect(names.sort()).toEqual([
      'code',
      'plan',
      'pr',
      'reproduce',
      'triage',
      'trigger',
      'verify',
    ]);
  });

  it('does not mount Bull Board without ADMIN_PASSWORD', async () => {
    h = await startHarness({ workers: false });
    expect((await fetch(`${h.app.url}/admin/queues`)).status).toBe(404);
  });
});
