/**
 * Workers mint installation tokens for git before making any API call (a restarted worker resuming
 * a code job, say). That token request must go to the configured API (GHE_HOST, here the fake
 * GitHub), not to api.github.com, with Probot's production Octokit as with the test one.
 */
import { createInstallationAuth } from '../../../src/github/installation-auth.js';
import { createLogger } from '../../../src/logger.js';
import { probotClass } from '../../../src/hosts/app/probot-class.js';
import { startFakeGitHub, type FakeGitHub } from '../../helpers/fake-github.js';
import { testOctokit } from '../../helpers/github-client.js';
import { generateAppKeyPair } from '../../helpers/webhooks.js';

const keys = generateAppKeyPair();

describe('installation tokens', () => {
  let github: FakeGitHub;
  beforeEach(async () => {
    github = await startFakeGitHub({ appPublicKey: keys.publicKey });
  });
  afterEach(() => github.close());

  it.each([
    ['production', undefined],
    ['test', testOctokit()],
  ])(
    'mints a token at the configured API as the first request (%s Octokit)',
    async (_name, Octokit) => {
      const ProbotWithDefaults = probotClass(
        {
          appId: '1',
          privateKey: keys.privateKey,
          apiUrl: github.apiUrl,
          ...(Octokit ? { Octokit } : {}),
        },
        createLogger({ level: 'silent' }),
      );
      const seen: string[] = [];
      const auth = createInstallationAuth(new ProbotWithDefaults(), (t) => seen.push(t));
      const token = await (await auth(4242)).getInstallationToken();
      expect(github.tokens.has(token)).toBe(true);
      expect(seen).toEqual([token]);
      expect(github.calls('POST', '/app/installations/4242/access_tokens')).toHaveLength(1);
    },
  );
});
