import { AutofixError } from '../../../src/errors.js';
import { renderBusyReply, renderConfigErrorReply } from '../../../src/intake/render-replies.js';
import { issueNumberFromBranch } from '../../../src/intake/resolve-bot-pull-request.js';

describe('issueNumberFromBranch', () => {
  it('reads the issue from <prefix><type>/<issue>-<slug>', () => {
    expect(issueNumberFromBranch('autofix/fix/42-null-check', 'autofix/')).toBe(42);
    expect(issueNumberFromBranch('bots/af/docs/7-typo', 'bots/af/')).toBe(7);
  });

  it('gives up on other shapes', () => {
    expect(issueNumberFromBranch('feature/42-x', 'autofix/')).toBeUndefined();
    expect(issueNumberFromBranch('autofix/fix/no-number', 'autofix/')).toBeUndefined();
  });
});

describe('replies', () => {
  it('names each bad key of an invalid config and how to retry', () => {
    const error = new AutofixError('CONFIG_INVALID', 'bad', {
      details: {
        problems: [
          { key: 'risk_threshold', message: 'Invalid option' },
          { key: 'draft_pr', message: 'unknown key' },
        ],
      },
    });
    const body = renderConfigErrorReply(error, '.github/autofix.yml', 'main', '/fixit');
    expect(body).toContain('`.github/autofix.yml` on `main` is invalid');
    expect(body).toContain('- `risk_threshold`: Invalid option\n- `draft_pr`: unknown key');
    expect(body).toContain('comment `/fixit`');
  });

  it('says a run is already active', () => {
    expect(renderBusyReply('run-1')).toContain('already working on this (run `run-1`)');
  });
});
