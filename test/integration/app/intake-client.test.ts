/**
 * The webhook server's Probot builds no installation client per delivery (issue #38): a handler's
 * `context.octokit` refuses every request, and nothing reaches GitHub. The clients the app asks
 * for itself (`auth(installationId)`) are the usual ones.
 */
import type { Context } from 'probot';
import { createLogger } from '../../../src/logger.js';
import { NO_CLIENT_IN_INTAKE, probotClass } from '../../../src/hosts/app/probot-class.js';
import { startFakeGitHub, type FakeGitHub } from '../../helpers/fake-github.js';
import { generateAppKeyPair, labeledPayload } from '../../helpers/webhooks.js';

const keys = generateAppKeyPair();

describe("the webhook server's GitHub client", () => {
  let github: FakeGitHub;
  beforeEach(async () => {
    github = await startFakeGitHub({ appPublicKey: keys.publicKey });
  });
  afterEach(() => github.close());

  const webhookProbot = (): InstanceType<ReturnType<typeof probotClass>> => {
    const WebhookProbot = probotClass(
      { appId: '1', privateKey: keys.privateKey, apiUrl: github.apiUrl, webhookSecret: 's' },
      createLogger({ level: 'silent' }),
      { webhooksOnly: true },
    );
    return new WebhookProbot();
  };

  it('refuses every request a webhook handler makes, and asks GitHub nothing', async () => {
    const probot = webhookProbot();
    const errors: unknown[] = [];
    probot.on('issues.labeled', async (context: Context<'issues.labeled'>) => {
      for (const call of [
        () => context.octokit.request('GET /repos/{owner}/{repo}', context.repo()),
        () => context.octokit.rest.issues.createComment(context.issue({ body: 'hi' })),
      ]) {
        errors.push(await call().catch((err: unknown) => err));
      }
    });
    for (const id of ['d-1', 'd-2']) {
      await probot.receive({ id, name: 'issues', payload: labeledPayload() as never });
    }
    expect(errors).toHaveLength(4);
    for (const err of errors) expect((err as Error).message).toBe(NO_CLIENT_IN_INTAKE);
    expect(github.requests).toHaveLength(0);
  });

  it('still authenticates the clients the app asks for', async () => {
    const octokit = await webhookProbot().auth(4242);
    await octokit.request('GET /repos/{owner}/{repo}', { owner: 'octo', repo: 'app' }).catch(() => {
      // the fake may not know the repository: what counts is that the request went out
    });
    expect(github.calls('POST', '/app/installations/4242/access_tokens')).toHaveLength(1);
  });
});
