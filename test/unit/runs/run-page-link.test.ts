import {
  createRunPageLinks,
  runPageKey,
  signRunPage,
  verifyRunPage,
} from '../../../src/runs/run-page-link.js';

const KEY = runPageKey('the-webhook-secret');
const NOW = Date.UTC(2026, 10, 28, 12, 0, 0);
const RUN = 'run-0123456789abcdef';
const DAY = 24 * 3600_000;

function parts(url: string): { runId: string; expires: string | null; sig: string | null } {
  const u = new URL(url);
  return {
    runId: decodeURIComponent(u.pathname.slice('/runs/'.length)),
    expires: u.searchParams.get('expires'),
    sig: u.searchParams.get('sig'),
  };
}

describe('run page links', () => {
  const links = createRunPageLinks({ baseUrl: 'https://autofix.example.com/', key: KEY });

  it('signs a link under the public URL that verifies until it expires', () => {
    const url = links.urlOf({ runId: RUN, acceptedAt: NOW });
    expect(url).toMatch(
      /^https:\/\/autofix\.example\.com\/runs\/run-0123456789abcdef\?expires=\d+&sig=[\w-]{43}$/,
    );
    const { runId, expires, sig } = parts(url);
    expect(links.verify(runId, expires, sig, NOW + DAY)).toBe(true);
    expect(links.verify(runId, expires, sig, NOW + 31 * DAY)).toBe(false);
  });

  it('prints the same link for a run on every edit (expiry from when the run was accepted)', () => {
    expect(links.urlOf({ runId: RUN, acceptedAt: NOW })).toBe(
      links.urlOf({ runId: RUN, acceptedAt: NOW }),
    );
  });

  it('refuses another run id, expiry or signature, and another key', () => {
    const { runId, expires, sig } = parts(links.urlOf({ runId: RUN, acceptedAt: NOW }));
    const later = String(Number(expires) + 3600);
    const flipped = `${sig!.slice(0, -1)}${sig!.endsWith('A') ? 'B' : 'A'}`;
    expect(links.verify('run-0123456789abcdee', expires, sig, NOW)).toBe(false);
    expect(links.verify(runId, later, sig, NOW)).toBe(false);
    expect(links.verify(runId, expires, flipped, NOW)).toBe(false);
    expect(links.verify(runId, expires, `${sig}=`, NOW)).toBe(false);
    expect(links.verify(runId, expires, sig!.slice(1), NOW)).toBe(false);
    expect(links.verify(runId, expires, null, NOW)).toBe(false);
    expect(links.verify(runId, null, sig, NOW)).toBe(false);
    const other = runPageKey('another-webhook-secret');
    expect(verifyRunPage(other, runId, expires, sig, NOW)).toBe(false);
  });

  it('refuses malformed ids and expiries before trusting anything', () => {
    const bad = '../../etc/passwd';
    const { sig } = signRunPage(KEY, bad, 9_999_999_999);
    expect(verifyRunPage(KEY, bad, '9999999999', sig, NOW)).toBe(false);
    const { sig: s2 } = signRunPage(KEY, RUN, 9_999_999_999);
    expect(verifyRunPage(KEY, RUN, '9999999999.0', s2, NOW)).toBe(false);
    expect(verifyRunPage(KEY, RUN, '9999999999', s2, NOW)).toBe(true);
  });

  it('derives a key of its own from the operator secret (never the secret itself)', () => {
    expect(KEY).toHaveLength(32);
    expect(KEY.equals(runPageKey('the-webhook-secret'))).toBe(true);
    expect(KEY.toString('utf8')).not.toContain('the-webhook-secret');
    expect(KEY.equals(Buffer.from('the-webhook-secret'))).toBe(false);
  });
});
