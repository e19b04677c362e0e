/**
 * The open-PR check at intake (`src/intake/find-open-issue-pull.ts`) counts only a pull
 * request from a branch of the repository itself. A fork's PR from a branch of the same name is
 * not the issue's open PR even when the app's account opened it (the same app, installed on the
 * fork too, opened it from there), as GitHub tells them apart: by `head.repo`.
 */
import { labeledPayload } from '../../helpers/webhooks.js';
import { startHarness, type Harness } from './harness.js';

const bodyOf = (req: { body: unknown }): string => (req.body as { body: string }).body;
const OPEN_PR_REPLY = 'already has an open Autofix pull request';

describe('the open Autofix PR of an issue, with a fork', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  const forkPull = (harness: Harness, issue: number) =>
    harness.github.addPull({
      title: 'fix: from a fork',
      body: '',
      head: `autofix/fix/${issue}-the-bug`,
      headRepo: 'someone/Hello-World',
      base: 'main',
      draft: false,
      author: harness.github.botLogin,
    });

  it("is not a fork's PR from a branch of the same name: the run starts", async () => {
    h = await startHarness({ workers: false });
    forkPull(h, 14);
    await h.send('issues', labeledPayload({ issueNumber: 14 }));
    await h.admitted();
    expect((await h.runsAt('triage')).map((r) => r.issue.number)).toEqual([14]);
    const replies = h.github.calls('POST', /\/issues\/14\/comments$/).map(bodyOf);
    expect(replies.filter((r) => r.includes(OPEN_PR_REPLY))).toEqual([]);
  });

  it('is the same-repository PR of that branch name, listed after the fork’s', async () => {
    h = await startHarness({ workers: false });
    const fork = forkPull(h, 15);
    const own = h.github.addPull({
      title: 'fix: the bug',
      body: '',
      head: 'autofix/fix/15-the-bug',
      base: 'main',
      draft: false,
      author: h.github.botLogin,
    });
    await h.send('issues', labeledPayload({ issueNumber: 15 }));
    await h.admitted();
    expect(await h.jobs('triage')).toHaveLength(0);
    const replies = h.github.calls('POST', /\/issues\/15\/comments$/).map(bodyOf);
    expect(replies).toHaveLength(1);
    expect(replies[0]).toContain(`${OPEN_PR_REPLY}: #${own.number}`);
    expect(replies[0]).not.toContain(`#${fork.number}`);
  });
});
