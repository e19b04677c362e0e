import { renderSetupPage } from '../../../../src/hosts/app/setup-page.js';
import { renderStatusPage, type StatusData } from '../../../../src/hosts/app/status-page.js';

const evil = `x"><script>alert('1')</script>&amp;`;

const data = (identifying: boolean): StatusData => ({
  appName: evil,
  webhooks: { count: 2, since: 0, lastAt: 1000, lastEvent: evil },
  queues: [{ name: 'triage', waiting: 1, active: 0, delayed: 0, failed: 0 }],
  runs: [
    {
      runId: 'run-0123456789abcdef',
      repo: `acme/${evil}`,
      issue: 3,
      stage: 'triage',
      outcome: 'stopped',
      detail: evil,
      at: 1000,
    },
  ],
  outcomes: [
    { repo: `acme/${evil}`, merged: 3, closed: 1, reverted: 0 },
    { repo: 'acme/b', merged: 0, closed: 0, reverted: 1 },
  ],
  identifying,
  adminEnabled: identifying,
  now: 2000,
});

/** The outcome table's rows, as text cells. */
const outcomeRows = (page: string): string[][] =>
  [
    ...(/<table id="outcomes">([\s\S]*?)<\/table>/.exec(page)?.[1] ?? '').matchAll(
      /<tr>([\s\S]*?)<\/tr>/g,
    ),
  ]
    .map((m) => [...m[1]!.matchAll(/<td>([\s\S]*?)<\/td>/g)].map((c) => c[1]!.trim()))
    .filter((cells) => cells.length > 0);

describe('status page rendering', () => {
  it('escapes every value', () => {
    const html = renderStatusPage(data(true));
    expect(html).not.toContain('<script>');
    expect(html).toContain('x&quot;&gt;&lt;script&gt;alert(&#39;1&#39;)&lt;/script&gt;&amp;amp;');
    expect(html).toContain('acme/x&quot;');
    expect(html).toContain('run-0123456789abcdef');
    expect(html).toContain('href="/admin/queues"');
  });

  it('shows only counts when the visitor is not identified', () => {
    const html = renderStatusPage(data(false));
    expect(html).not.toContain('acme/');
    expect(html).not.toContain('run-0123456789abcdef');
    expect(html).toMatch(/<td>stopped<\/td>\s*<td>1<\/td>/);
    expect(html).not.toContain('href="/admin/queues"');
    expect(html).toContain('href="/metrics"');
  });

  it('shows the PR outcomes per repository, escaped, with the merge rate', () => {
    const html = renderStatusPage(data(true));
    expect(html).toContain('PR outcomes, last 30 days');
    expect(outcomeRows(html)).toEqual([
      ['acme/b', '0', '0', '1', '0 %'],
      [
        `acme/x&quot;&gt;&lt;script&gt;alert(&#39;1&#39;)&lt;/script&gt;&amp;amp;`,
        '3',
        '1',
        '0',
        '75 %',
      ],
    ]);
  });

  it('sums the PR outcomes of every repository when the visitor is not identified', () => {
    expect(outcomeRows(renderStatusPage(data(false)))).toEqual([
      ['All 2 repositories', '3', '1', '1', '60 %'],
    ]);
  });

  it('says when no PR was decided in the window', () => {
    const html = renderStatusPage({ ...data(true), outcomes: [] });
    expect(html).toContain('No pull request of this app was merged or closed in the last 30 days');
  });
});

describe('setup page rendering', () => {
  it('puts the manifest JSON into a double-quoted, fully escaped attribute', () => {
    const manifest = {
      name: evil,
      hook_attributes: { url: 'http://localhost:3000/api/github/webhooks' },
    };
    const html = renderSetupPage({
      manifest,
      createAppUrl: 'https://github.com/settings/apps/new',
    });
    const value = /name="manifest" id="manifest" value="([^"]*)"/.exec(html)?.[1];
    expect(value).toBeDefined();
    expect(value).not.toMatch(/[<>'"]/);
    expect(html).not.toContain('<script>');
  });
});
