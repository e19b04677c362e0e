import { runFactsFor } from '../../../../../src/hosts/app/stages/run-facts.js';
import { runPageLinksOf } from '../../../../../src/hosts/app/run-page/run-page-links-of.js';
import { succeededRun } from '../../../../helpers/run-records.js';

describe('the run page link the PR body names (runFactsFor)', () => {
  const run = succeededRun();

  it('is the run signed under PUBLIC_URL', () => {
    const links = runPageLinksOf({
      publicUrl: 'https://autofix.example.com',
      webhookSecret: 'sec-0123456789',
    });
    const facts = runFactsFor(run, links?.urlOf(run));
    expect(facts.runPage).toMatch(
      /^https:\/\/autofix\.example\.com\/runs\/run-0123456789abcdef\?expires=/,
    );
  });

  it('is absent without PUBLIC_URL or without the webhook secret: no link rather than a wrong one', () => {
    expect(runPageLinksOf({ webhookSecret: 'sec-0123456789' })).toBeUndefined();
    expect(runPageLinksOf({ publicUrl: 'https://autofix.example.com' })).toBeUndefined();
    expect(runFactsFor(run).runPage).toBeUndefined();
  });
});
