/**
 * The demo's trigger: the fake GitHub sends the app a signed `issues.labeled` delivery for the
 * sample issue, as GitHub does when a maintainer adds the label.
 */
import type { FakeGitHub } from '../../fakes/github/index.js';
import { WEBHOOK_PATH } from '../hosts/app/setup-page.js';
import { DEMO_ISSUE, DEMO_ISSUE_NUMBER, DEMO_OWNER, DEMO_REPO_NAME } from './sample.js';
import { DEMO_SENDER } from './start-demo-app.js';

const INSTALLATION_ID = 4242;

function labeledPayload(cloneUrl: string): Record<string, unknown> {
  const now = new Date().toISOString();
  return {
    action: 'labeled',
    issue: {
      number: DEMO_ISSUE_NUMBER,
      title: DEMO_ISSUE.title,
      body: DEMO_ISSUE.body,
      state: 'open',
      user: { login: DEMO_SENDER, type: 'User' },
      labels: [{ name: 'autofix' }],
      created_at: now,
      updated_at: now,
    },
    label: { name: 'autofix' },
    repository: {
      id: 1,
      name: DEMO_REPO_NAME,
      full_name: `${DEMO_OWNER}/${DEMO_REPO_NAME}`,
      private: false,
      default_branch: 'main',
      clone_url: cloneUrl,
      owner: { login: DEMO_OWNER, type: 'User' },
    },
    sender: { login: DEMO_SENDER, type: 'User' },
    installation: { id: INSTALLATION_ID },
  };
}

/** The app's answer to the delivery (0: no answer). */
export async function labelDemoIssue(
  github: FakeGitHub,
  app: { url: string; secret: string },
  cloneUrl: string,
): Promise<number> {
  github.redeliverTo({ url: `${app.url}${WEBHOOK_PATH}`, secret: app.secret });
  const attempt = await github.sendDelivery({ event: 'issues', payload: labeledPayload(cloneUrl) });
  return attempt.status_code;
}
