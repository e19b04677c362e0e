/**
 * The run page through the real app (harness: real Redis, unique prefix, the fake GitHub): a run
 * completes, its status comment carries the signed link under PUBLIC_URL, and fetching that link
 * from `serve` shows the run's stages from its record; an altered link is a 404.
 */
import { labeledPayload } from '../../helpers/webhooks.js';
import { WAIT_MS } from '../../helpers/deadlines.js';
import { EMPTY_USAGE } from '../../../src/runs/run-record.js';
import type { StageFns } from '../../helpers/test-stages.js';
import { runsEnded, startHarness, waitFor, type Harness } from './harness.js';

const PUBLIC_URL = 'https://autofix.example.test/base';

describe('the run page of a run through the app', () => {
  let h: Harness;
  afterEach(async () => h?.close());

  it('links the page from the status comment, and the link shows the stages', async () => {
    // Triage as the real one answers: what its calls used, and the ranking's reasons.
    const triage: StageFns['triage'] = async (job, ctx) => {
      ctx.recordUsage(
        {
          ...EMPTY_USAGE,
          promptTokens: 1200,
          completionTokens: 34,
          totalTokens: 1234,
          costUsd: 0.0021,
        },
        ['gpt-e2e'],
      );
      const answer = await h.stages.defaults.triage(job, ctx);
      if (answer.kind !== 'continue') return answer;
      const ranked = [{ path: 'README.md', reasons: ['named in the issue <script>'] }];
      return { ...answer, output: { ...answer.output, ranked } };
    };
    h = await startHarness({ publicUrl: PUBLIC_URL, overrides: { triage } });
    await h.send('issues', labeledPayload({ issueNumber: 7, title: 'Typo <b>bold</b>' }));
    await waitFor(() => h.github.pulls[0], WAIT_MS, 'the pull request');
    await runsEnded(h.prefix);
    const status = await waitFor(
      () =>
        [...h.github.comments.values()].find(
          (c) => c.body.includes('autofix-run:') && c.body.includes('🚀'),
        ),
      WAIT_MS,
      'the final status comment',
    );
    const link = /\[run page\]\(<([^>]+)>\)/.exec(status.body)?.[1];
    expect(link).toMatch(
      /^https:\/\/autofix\.example\.test\/base\/runs\/run-[0-9a-f]+\?expires=\d+&sig=/,
    );
    const url = new URL(link!);
    const path = `${url.pathname.replace(/^\/base/, '')}${url.search}`;

    const res = await fetch(`${h.app.url}${path}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    const page = await res.text();
    expect(page).toContain('Succeeded');
    for (const stage of ['triage', 'plan', 'reproduce', 'code', 'pr'])
      expect(page).toMatch(new RegExp(`<td>${stage}</td>\\s*<td>done</td>`));
    expect(page).not.toContain('<b>bold</b>');
    expect(page).toMatch(/<td>triage<\/td>[\s\S]*?gpt-e2e[\s\S]*?1,200[\s\S]*?\$0\.0021/);
    expect(page).toContain('named in the issue &lt;script&gt;');

    const runId = decodeURIComponent(url.pathname.split('/').at(-1)!);
    const record = await h.run(runId);
    expect(record?.ending?.outcome).toBe('finished');

    // The same link with its id altered, or its signature, is a 404; the real one still opens.
    const sig = url.searchParams.get('sig')!;
    const altered = [
      path.replace(runId, `${runId.slice(0, -1)}${runId.endsWith('0') ? '1' : '0'}`),
      path.replace(sig, `${sig.slice(0, -1)}${sig.endsWith('A') ? 'B' : 'A'}`),
      `/runs/${runId}`,
    ];
    for (const p of altered) expect((await fetch(`${h.app.url}${p}`)).status).toBe(404);
  });
});
