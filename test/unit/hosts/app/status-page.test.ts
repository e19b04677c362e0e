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
  identifying,
  adminEnabled: identifying,
  now: 2000,
});

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
