import { extractIssueRefs } from '../../../src/context/extract-issue-refs.js';

describe('extractIssueRefs', () => {
  it('finds paths with lines in prose, stack traces and links', () => {
    const refs = extractIssueRefs(
      [
        'Crash in `src/payments/refund.ts:42` when refunding.',
        '    at computeRefund (/home/ci/app/src/payments/refund.ts:42:13)',
        'File "/srv/app/billing/invoice.py", line 88, in total',
        'See https://github.com/acme/shop/blob/main/lib/cart.rb#L10-L20 and ./docs/guide.md.',
        'Happens on v1.2.3, e.g. with Node.js 20.',
      ].join('\n'),
    );
    // Stack-trace frames (Python, then JavaScript) come first and are marked as such.
    expect(refs.paths.map((p) => [p.path, p.line])).toEqual([
      ['/srv/app/billing/invoice.py', 88],
      ['/home/ci/app/src/payments/refund.ts', 42],
      ['src/payments/refund.ts', 42],
      ['lib/cart.rb', 10],
      ['docs/guide.md', undefined],
    ]);
    expect(refs.paths.filter((p) => p.trace).map((p) => p.path)).toEqual([
      '/srv/app/billing/invoice.py',
      '/home/ci/app/src/payments/refund.ts',
    ]);
  });

  it('finds code identifiers but not ordinary words', () => {
    const refs = extractIssueRefs(
      'The `applyDiscount` helper and parse_config() fail; RefundPolicy too. MAX_ITEMS is wrong. Also run(x). The total is off.',
    );
    expect(refs.identifiers).toEqual([
      'MAX_ITEMS',
      'RefundPolicy',
      'applyDiscount',
      'parse_config',
      'run',
    ]);
  });
});
